/**
 * Sums by UTC day of block time and by type (sql/025 `day_types`): the messages of each type URL
 * (`block_messages`) and the token transfers of each token type (`token_transfers`), settled by
 * the projector with `day_stats` (day-sums.ts) and read as `chainDays` reads those.
 */

/** The kinds of `day_types` a chart reads (`blocks` marks each settled day). */
export type TypedKind = "messages" | "transfers";

/**
 * Each day's rows over the blocks of heights `lo` to `hi` (SQL expressions), as `day_types`
 * holds them: kind, type, day, the day's last height (of these blocks), count. Every day has a
 * row of kind `blocks` (its blocks), so the settled days end where the last one does. `{db}`:
 * the table set.
 */
export const typedDaySums = (lo: string, hi: string) => `SELECT kind, type, day, max_height, n
FROM (SELECT 'messages' AS kind, m.type AS type, b.day AS day, sum(m.messages) AS n
    FROM {db}.block_messages AS m FINAL
    INNER JOIN (SELECT height, toDate(time) AS day FROM {db}.block_stats FINAL
      WHERE height BETWEEN ${lo} AND ${hi}) AS b ON b.height = m.height
    WHERE m.height BETWEEN ${lo} AND ${hi} GROUP BY type, day
  UNION ALL
  SELECT 'transfers' AS kind, token_type AS type, toDate(time) AS day, count() AS n
    FROM {db}.token_transfers FINAL WHERE block_number BETWEEN ${lo} AND ${hi}
    GROUP BY type, day
  UNION ALL
  SELECT 'blocks' AS kind, '' AS type, toDate(time) AS day, count() AS n
    FROM {db}.block_stats FINAL WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day) AS t
INNER JOIN (SELECT toDate(time) AS day, max(height) AS max_height FROM {db}.block_stats FINAL
  WHERE height BETWEEN ${lo} AND ${hi} GROUP BY day) AS d USING day`;

/** The first height after the days of `day_types` settled before `day` (an SQL Date). */
export const typedSettledBefore = (day: string) =>
  `(SELECT max(max_height) + 1 FROM {db}.day_types FINAL WHERE day < ${day})`;

/**
 * The insert that settles the days before `closed` (an SQL Date) up to height `last` (an SQL
 * expression): every day after the last settled one.
 */
export const settleTypedDays = (closed: string, last: string) =>
  `INSERT INTO {db}.day_types SELECT * FROM (${typedDaySums(typedSettledBefore(closed), last)})
  WHERE day < ${closed}`;

/**
 * The settled days of one kind and type (`{kind:String}`, `{type:String}`, bound by the caller)
 * before the day of height `hi` (the API's `{projected}`), in order. `dayOf`: the day of a
 * height, as day-sums.ts has it.
 */
export const typedSettled = (hi: string, dayOf: (hi: string) => string) =>
  `SELECT toString(day) AS day, toString(n) AS n FROM (SELECT day, n FROM {db}.day_types FINAL
  WHERE kind = {kind:String} AND type = {type:String} AND day < ${dayOf(hi)}) ORDER BY day`;

/**
 * The days after those, up to height `hi`, of every kind and type, added up from the rows: with
 * `typedSettled`, every day up to `hi`. Rows of days settled by a batch not yet projected are left
 * out.
 */
export const typedOpen = (hi: string, dayOf: (hi: string) => string) =>
  `SELECT kind, type, toString(day) AS day, toString(n) AS n
  FROM (${typedDaySums(typedSettledBefore(dayOf(hi)), hi)}) ORDER BY day`;
