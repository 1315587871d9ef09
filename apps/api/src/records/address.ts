import { evmForm, type AddressRow as ProjectedAddressRow } from "@explorer/projections";
import { Effect } from "effect";
import { Db } from "../db.ts";
import { CURRENT_VALIDATORS } from "./validator.ts";

/**
 * An `addresses` row as the API reads it: the projector's row, its UInt64 height as JSON gives it,
 * and whether a contract lives at the address (`is_contract`, 1 or 0).
 */
export type AddressRow = Omit<ProjectedAddressRow, "height"> & {
  height: string | number;
  is_contract: number | boolean;
};

/** The columns of an `addresses` row as AddressRow has them (a contract projected so far). */
export const ADDRESS_COLUMNS =
  "address, evm, height, time, coins, delegations, redelegations, unbonding_delegations, rewards, account_number, sequence, lower(evm) IN (SELECT address FROM {db}.contracts WHERE block_number <= {projected}) AS is_contract";

/**
 * The account of a contract the `addresses` table does not hold, from its `contracts` row: a log
 * recorded before the ingester read the account of each contract created (raw-block's touched.ts)
 * holds no state for a contract that nothing named since. Such an account holds no coins and no
 * delegations (a value sent to it, a delegation, would have named it); its account number and
 * sequence, which the log does not hold, are "" (as for an account the node did not give).
 */
export const contractAccountRow = (
  bech32: string,
  c: { block_number: string | number; time: string },
): AddressRow => ({
  address: bech32,
  evm: evmForm(bech32),
  height: c.block_number,
  time: c.time,
  coins: "[]",
  delegations: "[]",
  redelegations: "[]",
  unbonding_delegations: "[]",
  rewards: "",
  account_number: "",
  sequence: "",
  is_contract: 1,
});

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
    isContract: Boolean(Number(r.is_contract)),
    number: r.account_number,
    sequence: r.sequence,
    timestamp: isoTime(r.time),
  };
  if (withRewards) record.rewards = r.rewards ? JSON.parse(r.rewards) : { rewards: [], total: [] };
  return record;
};
