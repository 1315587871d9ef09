import type { LightBlock } from "@explorer/raw-block";
import { bech32ToHexLower, checksummed } from "./address-cache.ts";
import { blockTime, chTime, obj, type ProjectionContext, str } from "./context.ts";

export interface AddressRow {
  address: string;
  evm: string;
  height: number;
  time: string;
  coins: string;
  delegations: string;
  redelegations: string;
  unbonding_delegations: string;
  rewards: string;
  account_number: string;
  sequence: string;
}

export const evmForm = (bech32: string): string => checksummed(bech32ToHexLower(bech32) ?? "");

/** Account state rows for every account touched at H, with native balances for the rich list. */
export const projectAccounts = (raw: LightBlock, ctx: ProjectionContext) => {
  const time = chTime(blockTime(raw));
  const addresses: AddressRow[] = [];
  const address_balances: { denom: string; address: string; amount: string; height: number }[] = [];
  const address_seen: { address: string; first_height: number; last_height: number }[] = [];
  for (const [address, s] of Object.entries(raw.state.accounts)) {
    const account = obj(s.account ?? {});
    // BaseAccount, or a module/vesting account wrapping one.
    const base = obj(
      account.base_account ?? obj(account.base_vesting_account).base_account ?? account,
    );
    addresses.push({
      address,
      evm: evmForm(address),
      height: raw.height,
      time,
      coins: JSON.stringify(s.balances),
      delegations: JSON.stringify(s.delegations),
      redelegations: JSON.stringify(s.redelegations),
      unbonding_delegations: JSON.stringify(s.unbonding),
      rewards: s.rewards ? JSON.stringify(s.rewards) : "",
      account_number: str(base.account_number),
      sequence: str(base.sequence),
    });
    for (const denom of ctx.nativeDenoms) {
      const amount = s.balances.find((c) => c.denom === denom)?.amount ?? "0";
      address_balances.push({ denom, address, amount, height: raw.height });
    }
    address_seen.push({ address, first_height: raw.height, last_height: raw.height });
  }
  return { addresses, address_balances, address_seen };
};
