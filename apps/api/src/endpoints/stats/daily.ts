import { chainDays, settledBefore } from "@explorer/store";
import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import { ReadModel } from "../../read-model/read-model.ts";
import { ACCOUNT_DAYS, ACCOUNT_PARTS } from "./account-days.ts";
import type { Source } from "./charts.ts";
import type { EntitySource } from "./entity-days.ts";
import { eachScoped, SCOPED } from "./scoped.ts";
import type { Day } from "./series.ts";
import type { SignatureSource } from "./validator-days.ts";

/**
 * Per UTC day of block time, every part of the whole chain's charts: the settled days of
 * `day_stats` (sql/021), and the projected block's day added up from its rows.
 */
const DAYS = chainDays("{projected}");

/** The fee a day's Cosmos transactions paid in `denom` (their auth_info fees: nothing is refunded). */
const COSMOS_FEE = `arraySum(arrayFilter((a, d) -> d = {denom:String}, fee_amounts, fee_denoms))`;

/** The parts of the whole chain's days (the `fee` of a day: EVM and Cosmos fees in `denom`). */
const DAY_PARTS: Readonly<Record<string, string>> = {
  blocks: "blocks",
  max_height: "max_height",
  first_ms: "first_ms",
  last_ms: "last_ms",
  gas_used: "gas_used",
  gas_limit: "gas_limit",
  size: "size",
  txs: "txs",
  evm_txs: "evm_txs",
  cosmos_txs: "cosmos_txs",
  success: "success",
  messages: "messages",
  fee: `evm_fee + ${COSMOS_FEE}`,
  transfers: "transfers",
  contracts: "contracts",
};

/** The block time at the projected height, and the first height of the 24 hours up to it. */
const AT = `(SELECT time FROM {db}.block_stats FINAL WHERE height = {projected})`;
const FROM_24H = `(SELECT min(height) FROM {db}.block_stats FINAL
  WHERE height BETWEEN ${settledBefore(`toDate(${AT} - INTERVAL 24 HOUR)`)} AND {projected}
    AND time > ${AT} - INTERVAL 24 HOUR)`;

/** Transactions, fees paid and contracts created in those 24 hours. */
const LAST_24H = `SELECT
  toString((SELECT count() FROM {db}.tx_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})) AS txs,
  toString((SELECT sum(if(is_evm = 1, 0, arraySum(arrayFilter((a, d) -> d = {denom:String}, fee_amounts, fee_denoms))))
    FROM {db}.tx_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})
    + (SELECT sum(evm_fee) FROM {db}.block_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})) AS fee,
  toString((SELECT count() FROM {db}.contracts FINAL
    WHERE block_number BETWEEN ${FROM_24H} AND {projected})) AS contracts`;

/** The sources of summed days (not the chain's levels: levels.ts; nor entity-days.ts's, nor validator-days.ts's). */
type DaySource = Exclude<Source, "levels" | EntitySource | SignatureSource>;

/** The parts of each source, as daysOf gives them (a scoped one's: beside the chain's blocks). */
const PARTS: Record<DaySource, Readonly<Record<string, string>>> = {
  chain: DAY_PARTS,
  accounts: ACCOUNT_PARTS,
  ...eachScoped((s) => s.parts),
};

/** The SQL of a source's days, in order, its parts as decimal text. */
const sqlOf = (source: DaySource): string => {
  const cols = Object.entries(PARTS[source])
    .map(([p, sql]) => `toString(${sql}) AS ${p}`)
    .join(", ");
  const from =
    source === "chain" ? DAYS : source === "accounts" ? ACCOUNT_DAYS : SCOPED[source].sql;
  return `SELECT toString(day) AS day, ${cols} FROM (${from}) ORDER BY day`;
};

/** A source's days with activity, each with its parts, up to the projected height. */
const readDays = (
  db: DbShape,
  source: DaySource,
  denom: string,
  scope: Readonly<Record<string, unknown>> = {},
) =>
  Effect.map(db.query<Record<string, string>>(sqlOf(source), { ...scope, denom }), (rows) =>
    rows.map(
      (r): Day => ({
        day: r.day!,
        parts: Object.fromEntries(Object.keys(PARTS[source]).map((p) => [p, BigInt(r[p] ?? "0")])),
      }),
    ),
  );

/**
 * The whole chain's days (or its accounts' days), read once per projected height (the read model
 * keeps them).
 */
const chainDaysOf = (db: DbShape, denom: string, source: "chain" | "accounts" = "chain") =>
  Effect.flatMap(ReadModel, (m) =>
    m.perHeight(
      `stats:${source === "chain" ? "days" : source}:${denom}`,
      readDays(db, source, denom),
    ),
  );

/**
 * The days of a chart's source up to the projected height: every day with a block, each with its
 * parts (a scoped source's beside the day's `blocks`; 0 where it had none). The whole chain's are
 * shared by every chart of it and the counters. `scope`: the values a scoped source's SQL binds
 * (scoped.ts).
 */
export const daysOf = (
  db: DbShape,
  source: DaySource,
  denom: string,
  scope: Readonly<Record<string, unknown>> = {},
) =>
  source === "chain" || source === "accounts"
    ? chainDaysOf(db, denom, source)
    : Effect.map(
        Effect.zip(chainDaysOf(db, denom), readDays(db, source, denom, scope)),
        ([days, scoped]) => beside(days, scoped),
      );

/** Each of `days` with its `blocks` and the parts `scoped` gives it (none: nothing). Pure. */
export const beside = (days: readonly Day[], scoped: readonly Day[]): Day[] => {
  const by = new Map(scoped.map((d) => [d.day, d.parts]));
  return days.map((d) => ({
    day: d.day,
    parts: { blocks: d.parts.blocks ?? 0n, ...by.get(d.day) },
  }));
};

/** Transactions and fees paid in the 24 hours up to the last projected block's time. */
export const last24h = (db: DbShape, denom: string) =>
  Effect.flatMap(ReadModel, (m) =>
    m.perHeight(
      `stats:24h:${denom}`,
      Effect.map(
        db.query<{ txs: string; fee: string; contracts: string }>(LAST_24H, { denom }),
        ([r]) => ({
          txs: BigInt(r?.txs ?? "0"),
          fee: BigInt(r?.fee ?? "0"),
          contracts: BigInt(r?.contracts ?? "0"),
        }),
      ),
    ),
  );
