import type { ClickHouseClient } from "@clickhouse/client";
import { settleDaysOf, settledBefore } from "./day-sums.ts";

/**
 * Blocks each validator signed and missed by UTC day of block time (sql/026
 * `validator_day_stats`), settled like `day_stats` (day-sums.ts): the projector writes a day once
 * a block of a later day is written (`settleValidatorDays`, called by settle-days.ts with the
 * other days); the API reads one validator's settled days (`validatorSettled`) and the days after
 * them of every validator, once per projected height (`validatorOpen`).
 */

/**
 * Per validator and day of the heights `lo` to `hi` (SQL expressions), as `validator_day_stats`
 * holds them: the blocks whose commit carries its signature and those that name it without one (a
 * height's signature once, whatever a replay wrote), with the day's last height of that range.
 */
const validatorSums = (lo: string, hi: string) => `SELECT s.cons_address AS cons_address,
  h.day AS day, d.max_height AS max_height,
  countIf(s.sig = 1) AS signed, countIf(s.sig = 0) AS missed
FROM (SELECT cons_address, height, max(signed) AS sig FROM {db}.validator_signatures
  WHERE height BETWEEN ${lo} AND ${hi} GROUP BY cons_address, height) AS s
INNER JOIN (SELECT height, toDate(time) AS day FROM {db}.block_stats FINAL
  WHERE height BETWEEN ${lo} AND ${hi}) AS h ON h.height = s.height
INNER JOIN (SELECT toDate(time) AS day, max(height) AS max_height FROM {db}.block_stats FINAL
  WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day) AS d ON d.day = h.day
GROUP BY cons_address, day, max_height`;

/** The first height after the days of `validator_day_stats` settled before `day` (an SQL Date). */
const settled = (day: string) => settledBefore(day, "validator_day_stats");

/**
 * Settles the days before `closed` (YYYY-MM-DD: the day of a batch's last block, when the batch
 * closed a day; settle-days.ts), before the progress row, from the first height after the days
 * settled before it up to `last`. The first settle of a set made before sql/026 settles every
 * day before `closed`.
 */
export const settleValidatorDays = (
  ch: ClickHouseClient,
  db: string,
  closed: string,
  last: number,
) => settleDaysOf(ch, db, "validator_day_stats", validatorSums, closed, last);

/**
 * The first height after the days settled before the day of height `hi` (the API's
 * `{projected}`), as `lo`: 1 before sql/026's first settle. `dayOf`: the day of a height, as
 * day-sums.ts has it. Rows of days settled by a batch not yet projected are after it.
 */
export const validatorLo = (hi: string, dayOf: (hi: string) => string) =>
  `SELECT toString(${settled(dayOf(hi))}) AS lo`;

/**
 * The settled days of one validator (`{cons:String}`, its consensus address) before height
 * `{lo:UInt64}` (`validatorLo`), in order.
 */
export const VALIDATOR_SETTLED = `SELECT toString(day) AS day, toString(signed) AS signed,
  toString(missed) AS missed FROM (SELECT day, signed, missed FROM {db}.validator_day_stats FINAL
  WHERE cons_address = {cons:String} AND max_height < {lo:UInt64}) ORDER BY day`;

/**
 * The days of every validator from height `{lo:UInt64}` (`validatorLo`) up to height `hi`, added
 * up from the rows: with `VALIDATOR_SETTLED`, every day up to `hi`.
 */
export const validatorOpen = (hi: string) =>
  `SELECT cons_address AS cons, toString(day) AS day, toString(signed) AS signed,
    toString(missed) AS missed FROM (${validatorSums("{lo:UInt64}", hi)}) ORDER BY day`;
