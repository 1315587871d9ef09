import type { ClickHouseClient } from "@clickhouse/client";
import { settleTypedDays } from "./day-types.ts";

/**
 * Sums by UTC day of block time (sql/021 `day_stats`), for the charts and counters of `/stats/*`:
 * the projector settles a day once a block of a later day is written (`settleDays`,
 * settle-days.ts); the API reads the settled days and adds up the rows of the days after them
 * (`daySums`). Either way from the per-block and per-transaction rows (sql/015,
 * `token_transfers`), read with FINAL, so a replayed batch counts once.
 */

/**
 * A day's sums over the blocks of heights `lo` to `hi` (SQL expressions), as `day_stats` holds
 * them, one row per day: blocks, their heights and times, the EVM blocks' gas and size, the EVM
 * fees, the transactions (EVM, Cosmos, successful), their messages, the fees Cosmos transactions
 * paid by denom, token transfers (each ERC-1155 batch item) and contracts created (by
 * transactions or by other contracts). `{db}`: the table set.
 */
export const daySums = (lo: string, hi: string) => `SELECT day, min_height, max_height, blocks,
  first_ms, last_ms, gas_used, gas_limit, size, evm_fee, txs, evm_txs, cosmos_txs, success,
  messages, fees.1 AS fee_denoms, fees.2 AS fee_amounts, transfers, contracts
FROM (SELECT toDate(time) AS day, min(height) AS min_height, max(height) AS max_height,
    count() AS blocks, toUInt64(toUnixTimestamp64Milli(min(time))) AS first_ms,
    toUInt64(toUnixTimestamp64Milli(max(time))) AS last_ms, sum(toUInt256(gas_used)) AS gas_used,
    sum(toUInt256(gas_limit)) AS gas_limit, sum(toUInt256(size)) AS size, sum(evm_fee) AS evm_fee
  FROM {db}.block_stats FINAL WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day) AS b
LEFT JOIN (SELECT toDate(time) AS day, count() AS txs, countIf(is_evm = 1) AS evm_txs,
    countIf(is_evm = 0) AS cosmos_txs, countIf(code = 0) AS success, sum(messages) AS messages,
    sumMapIf((fee_denoms, fee_amounts), is_evm = 0) AS fees
  FROM {db}.tx_stats FINAL WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day) AS t USING day
LEFT JOIN (SELECT toDate(time) AS day, count() AS transfers
  FROM {db}.token_transfers FINAL WHERE block_number BETWEEN ${lo} AND ${hi} GROUP BY day) AS x
  USING day
LEFT JOIN (SELECT toDate(time) AS day, count() AS contracts
  FROM {db}.contracts FINAL WHERE block_number BETWEEN ${lo} AND ${hi} GROUP BY day) AS k
  USING day
SETTINGS join_use_nulls = 0`;

/**
 * The first height after the settled days before `day` (an SQL expression of a Date), in
 * `table` (a table of settled days, keyed by `day`, with each one's `max_height`).
 */
export const settledBefore = (day: string, table = "day_stats") =>
  `(SELECT max(max_height) + 1 FROM {db}.${table} FINAL WHERE day < ${day})`;

/**
 * Settles the days of `table` before `closed` (YYYY-MM-DD: the day of a batch's last block, when
 * the batch closed a day; settle-days.ts), from the first height after the days settled before it
 * up to `last`: the rows `sums(lo, hi)` gives of those heights (SQL expressions), its days before
 * `closed` alone.
 */
export const settleDaysOf = async (
  ch: ClickHouseClient,
  db: string,
  table: string,
  sums: (lo: string, hi: string) => string,
  closed: string,
  last: number,
) => {
  const day = `toDate({closed:String})`;
  await ch.command({
    query:
      `INSERT INTO ${db}.${table} SELECT * FROM (${sums(settledBefore(day, table), "{last:UInt64}")})
      WHERE day < ${day}`.replaceAll("{db}", db),
    query_params: { closed, last },
  });
};

/** The UTC day of the block at height `hi`: the days before it are settled once it is projected. */
export const dayOf = (hi: string) =>
  `(SELECT toDate(time) FROM {db}.block_stats FINAL WHERE height = ${hi})`;

/**
 * Every day up to height `hi` (an SQL expression; the API's `{projected}`), as `daySums` gives
 * them: the settled days before its block's day, and that day added up from its rows. Rows of days
 * settled by a batch not yet projected (being written, or cut short by a crash) are left out.
 */
export const chainDays = (
  hi: string,
) => `SELECT * FROM {db}.day_stats FINAL WHERE day < ${dayOf(hi)}
UNION ALL SELECT * FROM (${daySums(settledBefore(dayOf(hi)), hi)})`;

/**
 * Settles the days before `closed` (YYYY-MM-DD: the day of a batch's last block, when the batch
 * closed a day; settle-days.ts) in `day_stats`, then by type in `day_types` (day-types.ts): each
 * from the first height after the days settled before it up to `last`.
 */
export const settleDaySums = async (
  ch: ClickHouseClient,
  db: string,
  closed: string,
  last: number,
): Promise<void> => {
  const day = `toDate({z:String})`;
  await ch.command({
    query:
      `INSERT INTO ${db}.day_stats SELECT * FROM (${daySums(settledBefore(day), "{last:UInt64}")})
      WHERE day < ${day}`.replaceAll("{db}", db),
    query_params: { z: closed, last },
  });
  // by type (sql/025): messages and token transfers
  await ch.command({
    query: settleTypedDays(day, "{last:UInt64}").replaceAll("{db}", db),
    query_params: { z: closed, last },
  });
};
