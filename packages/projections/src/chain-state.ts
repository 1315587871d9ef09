import type { RawBlockV1 } from "@explorer/raw-block";

export const projectChainState = (raw: RawBlockV1) => ({
  chain_state: [
    {
      height: raw.height,
      supply: JSON.stringify(raw.state.supply),
      bonded_tokens: raw.state.bondedTokens,
      not_bonded_tokens: raw.state.notBondedTokens,
      inflation: raw.state.inflation,
      community_pool: JSON.stringify(raw.state.communityPool),
    },
  ],
});
