import type { ClickHouseClient } from "@clickhouse/client";
import { dayOf, settleDaysOf, settledBefore } from "./day-sums.ts";

/**
 * Accounts and native coin sums by UTC day of block time (sql/024 `account_day_stats`), settled
 * like `day_stats` (day-sums.ts): the projector writes a day once a block of a later day is
 * written (`settleAccountDays`, called by settle-days.ts with the other days); the API reads the settled days and adds up the projected
 * block's day from its rows (`accountDays`).
 */

/** The days of the blocks of heights `lo` to `hi`, each with its last height. */
const blockDays = (lo: string, hi: string) => `SELECT toDate(time) AS day, max(height) AS max_height
  FROM {db}.block_stats FINAL WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day`;

/**
 * Per day, the accounts active (each with its first height that day) and how many were first
 * active in the day's week, month, year, and ever: an account's first height in a period is the
 * day's first height when the day is its first of the period (`account_firsts`: a min, exact
 * whatever rows a replay or a cut batch wrote beyond `hi`). Duplicate rows change no min or
 * distinct count: no FINAL.
 */
const activeDays = (lo: string, hi: string) => `SELECT day, count() AS active,
    countIf(fw = h) AS active_week, countIf(fm = h) AS active_month,
    countIf(fy = h) AS active_year, countIf(fe = h) AS new_accounts
  FROM (SELECT d.day AS day, d.address AS address, any(d.h) AS h,
      minIf(f.fh, f.kind = 'week' AND f.period = toMonday(d.day)) AS fw,
      minIf(f.fh, f.kind = 'month' AND f.period = toStartOfMonth(d.day)) AS fm,
      minIf(f.fh, f.kind = 'year' AND f.period = toStartOfYear(d.day)) AS fy,
      minIf(f.fh, f.kind = 'ever') AS fe
    FROM (SELECT toDate(time) AS day, address, min(height) AS h FROM {db}.account_activity
      WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day, address) AS d
    INNER JOIN (SELECT address, kind, period, min(first_height) AS fh FROM {db}.account_firsts
      WHERE address IN (SELECT address FROM {db}.account_activity WHERE height BETWEEN ${lo} AND ${hi})
      GROUP BY address, kind, period) AS f ON f.address = d.address
    GROUP BY day, address)
  GROUP BY day`;

/** Per day, the native coin transfers: EVM ones, and bank sends by denom. */
const transferDays = (lo: string, hi: string) => `SELECT toDate(time) AS day,
    sum(evm_transfers) AS evm_transfers, sumMap(bank_denoms, bank_transfers) AS bank
  FROM {db}.native_transfer_stats FINAL WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day`;

/**
 * Per day and native denom, the accounts whose balance went from 0 to > 0 (in) and from > 0 to 0
 * (out) over the day: each touched account's last reading of the day against its last one before
 * (before `lo`: `balance_history`, by account; none is 0). Duplicates change no argMax: no FINAL.
 */
const holderDays = (lo: string, hi: string) => `SELECT day,
    sumMap([denom], [toUInt64(prev = 0 AND after > 0)], [toUInt64(prev > 0 AND after = 0)]) AS holders
  FROM (SELECT day, denom, after, lagInFrame(after, 1, toUInt256(0)) OVER (PARTITION BY address, denom
      ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS prev
    FROM (SELECT toDate(s.time) AS day, r.address AS address, r.denom AS denom,
        argMax(r.amount, r.height) AS after
      FROM {db}.balance_readings AS r
      INNER JOIN (SELECT height, time FROM {db}.block_stats FINAL
        WHERE height BETWEEN ${lo} AND ${hi}) AS s ON s.height = r.height
      WHERE r.height BETWEEN ${lo} AND ${hi} GROUP BY day, address, denom
      UNION ALL
      SELECT toDate(0) AS day, address, denom, argMax(amount, height) AS after
      FROM {db}.balance_history WHERE height < ${lo} AND address IN
        (SELECT address FROM {db}.balance_readings WHERE height BETWEEN ${lo} AND ${hi})
      GROUP BY address, denom))
  WHERE day > toDate(0)
  GROUP BY day`;

/**
 * A day's accounts and native coin sums over the blocks of heights `lo` to `hi` (SQL
 * expressions), as `account_day_stats` holds them: a row for every day with a block.
 */
export const accountSums = (
  lo: string,
  hi: string,
) => `SELECT b.day AS day, b.max_height AS max_height,
  a.active AS active, a.active_week AS active_week, a.active_month AS active_month,
  a.active_year AS active_year, a.new_accounts AS new_accounts,
  n.evm_transfers AS evm_transfers, n.bank.1 AS bank_denoms, n.bank.2 AS bank_transfers,
  h.holders.1 AS holder_denoms, h.holders.2 AS holders_in, h.holders.3 AS holders_out
FROM (${blockDays(lo, hi)}) AS b
LEFT JOIN (${activeDays(lo, hi)}) AS a USING day
LEFT JOIN (${transferDays(lo, hi)}) AS n USING day
LEFT JOIN (${holderDays(lo, hi)}) AS h USING day
SETTINGS join_use_nulls = 0`;

/** The first height after the settled days of `account_day_stats` before `day`. */
const settled = (day: string) => settledBefore(day, "account_day_stats");

/**
 * Every day up to height `hi` (the API's `{projected}`), as `accountSums` gives them: the settled
 * days before its block's day, and that day added up from its rows. Days settled by a batch not
 * yet projected are left out.
 */
export const accountDays = (
  hi: string,
) => `SELECT * FROM {db}.account_day_stats FINAL WHERE day < ${dayOf(hi)}
UNION ALL SELECT * FROM (${accountSums(settled(dayOf(hi)), hi)})`;

/**
 * Settles the days before `closed` (YYYY-MM-DD: the day of a batch's last block, when the batch
 * closed a day; settle-days.ts), after `day_stats` and before the progress row, from
 * the first height after the days settled before it up to `last`.
 */
export const settleAccountDays = (ch: ClickHouseClient, db: string, closed: string, last: number) =>
  settleDaysOf(ch, db, "account_day_stats", accountSums, closed, last);
