import type { AddressRow as ProjectedAddressRow } from "@explorer/projections";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { CURRENT_VALIDATORS } from "./validator.ts";

/** An `addresses` row as the API reads it: the projector's row, its UInt64 height as JSON gives it. */
export type AddressRow = Omit<ProjectedAddressRow, "height"> & { height: string | number };

/** ClickHouse DateTime64(3) text → ISO 8601 UTC with milliseconds. */
export const isoTime = (t: string): string => (t.includes("T") ? t : `${t.replace(" ", "T")}Z`);

export const validatorAccounts = Effect.gen(function* () {
  const rows = yield* (yield* Db).query<{ account: string }>(
    `SELECT account FROM ${CURRENT_VALIDATORS}`,
  );
  return new Set(rows.map((r) => r.account));
});

/** The SPEC Address record; `rewards` only in the single-address answer. */
export const addressRecord = (
  r: AddressRow,
  validatorAccounts: Set<string>,
  withRewards: boolean,
) => {
  const coins = JSON.parse(r.coins) as { denom: string; amount: string }[];
  const record: Record<string, unknown> = {
    mx: r.address,
    evm: r.evm,
    blockNumber: Number(r.height),
    coins,
    holdCoins: Object.fromEntries(coins.map((c) => [c.denom, c.amount])),
    delegations: JSON.parse(r.delegations),
    redelegations: JSON.parse(r.redelegations),
    unbonding_delegations: JSON.parse(r.unbonding_delegations),
    isValidator: validatorAccounts.has(r.address),
    number: r.account_number,
    sequence: r.sequence,
    timestamp: isoTime(r.time),
  };
  if (withRewards) record.rewards = r.rewards ? JSON.parse(r.rewards) : { rewards: [], total: [] };
  return record;
};
