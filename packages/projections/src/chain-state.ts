import type { LightBlock } from "@explorer/raw-block";

export const projectChainState = (raw: LightBlock) => ({
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
