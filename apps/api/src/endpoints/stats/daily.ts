import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { Source } from "./charts.ts";
import type { Day } from "./series.ts";

/** Per UTC day of block time: blocks, their first and last time, gas and size (sql/015). */
const BLOCK_DAYS = `SELECT day, count() AS blocks, toUnixTimestamp64Milli(min(time)) AS first_ms,
  toUnixTimestamp64Milli(max(time)) AS last_ms, sum(gas_used) AS gas_used,
  sum(gas_limit) AS gas_limit, sum(size) AS size
FROM {db}.block_stats FINAL WHERE height <= {projected} GROUP BY day`;

/**
 * Transactions of the projected heights `where` allows, each with its fee paid in `denom`. An EVM
 * transaction's fee (auth_info) is gas_wanted × its price; it pays gas_used × that price, the rest
 * refunded.
 */
const txRows = (where: string) => `SELECT day, is_evm, code, messages,
  if(is_evm = 1 AND gas_wanted > 0, intDiv(offered * gas_used, gas_wanted), offered) AS fee
FROM (SELECT day, is_evm, code, messages, gas_used, gas_wanted,
  arraySum(arrayFilter((a, d) -> d = {denom:String}, fee_amounts, fee_denoms)) AS offered
  FROM {db}.tx_stats FINAL WHERE height <= {projected} AND ${where})`;

/** Per day: transactions, EVM and Cosmos ones, successful ones, messages, fees paid. */
const TX_DAYS = `SELECT day, count() AS txs, countIf(is_evm = 1) AS evm_txs,
  countIf(is_evm = 0) AS cosmos_txs, countIf(code = 0) AS success, sum(messages) AS messages,
  sum(fee) AS fee
FROM (${txRows("1")}) GROUP BY day`;

/** Transactions and fees of the blocks of the 24 hours up to the last projected block's time. */
const LAST_24H = `SELECT toString(count()) AS txs, toString(sum(fee)) AS fee FROM (${txRows(`height >=
  (SELECT min(height) FROM {db}.block_stats FINAL WHERE height <= {projected} AND time >
    (SELECT max(time) FROM {db}.block_stats FINAL WHERE height <= {projected}) - INTERVAL 24 HOUR)`)})`;

const PARTS: Record<Source, readonly string[]> = {
  blocks: ["blocks", "first_ms", "last_ms", "gas_used", "gas_limit", "size"],
  txs: ["blocks", "txs", "evm_txs", "cosmos_txs", "success", "messages", "fee"],
};

/** The SQL of a source's days: every day with a block, in order, its parts as decimal text. */
const sqlOf = (source: Source): string => {
  const cols = PARTS[source].map((p) => `toString(${p}) AS ${p}`).join(", ");
  return source === "blocks"
    ? `SELECT toString(day) AS day, ${cols} FROM (${BLOCK_DAYS}) ORDER BY day`
    : `SELECT toString(day) AS day, ${cols}
FROM (${BLOCK_DAYS}) AS b LEFT JOIN (${TX_DAYS}) AS t USING day ORDER BY day
SETTINGS join_use_nulls = 0`;
};

/** The days of a chart's source, each with its parts, up to the projected height. */
export const daysOf = (db: DbShape, source: Source, denom: string) =>
  Effect.map(db.query<Record<string, string>>(sqlOf(source), { denom }), (rows) =>
    rows.map(
      (r): Day => ({
        day: r.day!,
        parts: Object.fromEntries(PARTS[source].map((p) => [p, BigInt(r[p] ?? "0")])),
      }),
    ),
  );

/** Transactions and fees paid in the 24 hours up to the last projected block's time. */
export const last24h = (db: DbShape, denom: string) =>
  Effect.map(db.query<{ txs: string; fee: string }>(LAST_24H, { denom }), ([r]) => ({
    txs: BigInt(r?.txs ?? "0"),
    fee: BigInt(r?.fee ?? "0"),
  }));
