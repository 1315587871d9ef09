import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import { daysOf } from "./daily.ts";
import type { Day } from "./series.ts";

/** A Cosmos decimal (`sdk.Dec`: 18 decimals) as an integer of 10⁻¹⁸ units. */
export const DEC_ONE = 10n ** 18n;
export const decUnits = (dec: string): bigint => {
  const [int = "0", frac = ""] = dec.trim().split(".");
  return BigInt(int || "0") * DEC_ONE + BigInt((frac.slice(0, 18) || "0").padEnd(18, "0"));
};

interface Coin {
  readonly denom: string;
  readonly amount: string;
}

/** What `chain_state` holds at a height: the node's answers at its end (sql/001). */
export interface StateRow {
  readonly h: string;
  readonly supply: string;
  readonly bonded_tokens: string;
  readonly inflation: string;
  readonly community_pool: string;
}

const amountOf = (coinsJson: string, denom: string): string =>
  (JSON.parse(coinsJson) as Coin[]).find((c) => c.denom === denom)?.amount ?? "0";

/**
 * Each day's levels at its last block, from the chain's state there: `denom`'s supply, the bonded
 * tokens, the annual inflation and the community pool's `denom` (the last two in 10⁻¹⁸ units,
 * `dec_one` their unit). Pure: the days (their `max_height`) and the state rows in, the days out.
 */
export const levelsOf = (days: readonly Day[], rows: readonly StateRow[], denom: string): Day[] => {
  const at = new Map(rows.map((r) => [r.h, r]));
  return days.flatMap((d) => {
    const r = at.get(String(d.parts.max_height ?? 0n));
    if (!r) return [];
    const parts = {
      readings: 1n,
      supply: BigInt(amountOf(r.supply, denom)),
      bonded: BigInt(r.bonded_tokens || "0"),
      inflation: decUnits(r.inflation || "0"),
      pool: decUnits(amountOf(r.community_pool, denom)),
      dec_one: DEC_ONE,
    };
    return [{ day: d.day, parts }];
  });
};

/** The whole chain's days with their levels, read once per projected height. */
export const levelDays = (db: DbShape, denom: string) =>
  Effect.flatMap(Effect.zip(ReadModel, daysOf(db, "chain", denom)), ([m, days]) =>
    m.perHeight(
      `stats:levels:${denom}`,
      Effect.map(
        db.query<StateRow>(
          `SELECT toString(height) AS h, supply, bonded_tokens, inflation, community_pool
            FROM {db}.chain_state FINAL WHERE height IN {hs:Array(UInt64)}`,
          { hs: days.map((d) => String(d.parts.max_height ?? 0n)) },
        ),
        (rows) => levelsOf(days, rows, denom),
      ),
    ),
  );

/** Validators bonded at the projected height: each one's last reading up to it (sql/020). */
export const activeValidators = (db: DbShape) =>
  Effect.map(
    db.query<{ n: string }>(
      `SELECT toString(count()) AS n FROM (SELECT operator_address, argMax(status, height) AS s
        FROM {db}.validator_history FINAL WHERE height <= {projected} GROUP BY operator_address)
      WHERE s = 'BOND_STATUS_BONDED'`,
    ),
    ([r]) => BigInt(r?.n ?? "0"),
  );
