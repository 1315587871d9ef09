import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { Source } from "./charts.ts";
import { eachScoped } from "./scoped.ts";
import type { Day } from "./series.ts";

/**
 * Per UTC day of block time: blocks, their first and last time, gas, size, and the fees the EVM
 * transactions paid (sql/015).
 */
const BLOCK_DAYS = `SELECT toDate(time) AS day, count() AS blocks,
  toUnixTimestamp64Milli(min(time)) AS first_ms, toUnixTimestamp64Milli(max(time)) AS last_ms,
  sum(gas_used) AS gas_used, sum(gas_limit) AS gas_limit, sum(size) AS size, sum(evm_fee) AS evm_fee
FROM {db}.block_stats FINAL WHERE height <= {projected} GROUP BY day`;

/** The fee a Cosmos transaction paid in `denom` (its auth_info fee: nothing is refunded). */
const COSMOS_FEE = `if(is_evm = 1, 0, arraySum(arrayFilter((a, d) -> d = {denom:String}, fee_amounts, fee_denoms)))`;

/** Per day: transactions, EVM and Cosmos ones, successful ones, messages, Cosmos fees. */
const TX_DAYS = `SELECT toDate(time) AS day, count() AS txs, countIf(is_evm = 1) AS evm_txs,
  countIf(is_evm = 0) AS cosmos_txs, countIf(code = 0) AS success, sum(messages) AS messages,
  sum(${COSMOS_FEE}) AS cosmos_fee
FROM {db}.tx_stats FINAL WHERE height <= {projected} GROUP BY day`;

/** Per day: token transfers (an ERC-1155 batch counts each of its items), as `token_transfers` holds them. */
const TRANSFER_DAYS = `SELECT toDate(time) AS day, count() AS transfers
FROM {db}.token_transfers FINAL WHERE block_number <= {projected} GROUP BY day`;

/** Each source's days beside the blocks' (every day with a block is a day of every chart). */
const JOINED: Readonly<Record<Exclude<Source, "blocks">, string>> = {
  txs: TX_DAYS,
  transfers: TRANSFER_DAYS,
  ...eachScoped((s) => s.sql),
};

/** The first height of the 24 hours up to the last projected block's time. */
const FROM_24H = `(SELECT min(height) FROM {db}.block_stats FINAL WHERE height <= {projected} AND time >
  (SELECT max(time) FROM {db}.block_stats FINAL WHERE height <= {projected}) - INTERVAL 24 HOUR)`;

/** Transactions and fees paid in those 24 hours. */
const LAST_24H = `SELECT
  toString((SELECT count() FROM {db}.tx_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})) AS txs,
  toString((SELECT sum(${COSMOS_FEE}) FROM {db}.tx_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})
    + (SELECT sum(evm_fee) FROM {db}.block_stats FINAL WHERE height BETWEEN ${FROM_24H} AND {projected})) AS fee`;

/** The parts of each source, as daysOf gives them (the `fee` of a day: Cosmos and EVM fees). */
const PARTS: Record<Source, Readonly<Record<string, string>>> = {
  blocks: {
    blocks: "blocks",
    first_ms: "first_ms",
    last_ms: "last_ms",
    gas_used: "gas_used",
    gas_limit: "gas_limit",
    size: "size",
  },
  txs: {
    blocks: "blocks",
    txs: "txs",
    evm_txs: "evm_txs",
    cosmos_txs: "cosmos_txs",
    success: "success",
    messages: "messages",
    fee: "evm_fee + cosmos_fee",
  },
  transfers: { blocks: "blocks", transfers: "transfers" },
  ...eachScoped((s) => ({ blocks: "blocks", ...s.parts })),
};

/** The SQL of a source's days: every day with a block, in order, its parts as decimal text. */
const sqlOf = (source: Source): string => {
  const cols = Object.entries(PARTS[source])
    .map(([p, sql]) => `toString(${sql}) AS ${p}`)
    .join(", ");
  return source === "blocks"
    ? `SELECT toString(day) AS day, ${cols} FROM (${BLOCK_DAYS}) ORDER BY day`
    : `SELECT toString(day) AS day, ${cols}
FROM (${BLOCK_DAYS}) AS b LEFT JOIN (${JOINED[source]}) AS t USING day ORDER BY day
SETTINGS join_use_nulls = 0`;
};

/**
 * The days of a chart's source, each with its parts, up to the projected height. `scope`: the
 * values a scoped source's SQL binds (scoped.ts).
 */
export const daysOf = (
  db: DbShape,
  source: Source,
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

/** Transactions and fees paid in the 24 hours up to the last projected block's time. */
export const last24h = (db: DbShape, denom: string) =>
  Effect.map(db.query<{ txs: string; fee: string }>(LAST_24H, { denom }), ([r]) => ({
    txs: BigInt(r?.txs ?? "0"),
    fee: BigInt(r?.fee ?? "0"),
  }));
