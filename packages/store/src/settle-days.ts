import type { ClickHouseClient } from "@clickhouse/client";
import { settleAccountDays } from "./account-days.ts";
import { settleDaySums } from "./day-sums.ts";
import { settleValidatorDays } from "./validator-days.ts";

/**
 * The day a batch of heights `first` to `last` closed: its last block's UTC day (YYYY-MM-DD) when
 * the batch, with the block before it, spans more than one day. A batch within one day (at the
 * head: nearly every one) reads only its blocks' times.
 */
const closedDay = async (
  ch: ClickHouseClient,
  db: string,
  first: number,
  last: number,
): Promise<string | undefined> => {
  const rs = await ch.query({
    query: `SELECT toString(min(toDate(time))) AS a, toString(max(toDate(time))) AS z, count() AS n
      FROM ${db}.block_stats FINAL WHERE height BETWEEN {first:UInt64} AND {last:UInt64}`,
    query_params: { first: Math.max(first - 1, 0), last },
    format: "JSONEachRow",
  });
  const [span] = await rs.json<{ a: string; z: string; n: string | number }>();
  return !span || Number(span.n) === 0 || span.a === span.z ? undefined : span.z;
};

/**
 * Settles every table of days (sums by UTC day of block time) that a batch of heights `first` to
 * `last` closed, after its rows and before its progress row: `day_stats` and `day_types`
 * (day-sums.ts, day-types.ts), then `account_day_stats` (account-days.ts) and
 * `validator_day_stats` (validator-days.ts). A day is settled once
 * every block of it is written (block times never go back), so its rows are exact; a replayed
 * batch writes the same rows again, which collapse. Returns the day closed, if any.
 */
export const settleDays = async (
  ch: ClickHouseClient,
  db: string,
  first: number,
  last: number,
): Promise<string | undefined> => {
  const closed = await closedDay(ch, db, first, last);
  if (closed === undefined) return undefined;
  await settleDaySums(ch, db, closed, last);
  await settleAccountDays(ch, db, closed, last);
  await settleValidatorDays(ch, db, closed, last);
  return closed;
};
