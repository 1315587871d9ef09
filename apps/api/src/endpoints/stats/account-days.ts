import { accountDays, dayOf, settledBefore } from "@explorer/store";
import { Effect } from "effect";
import type { DbShape } from "../../db.ts";
import type { StoreFailure } from "../../http/errors.ts";
import type { Chart } from "./chart.ts";
import { periodOf, type Resolution } from "./periods.ts";
import type { Point } from "./series.ts";

/**
 * The days of the account and native coin charts (sql/024 `account_day_stats`: the settled days,
 * and the projected block's day added up from its rows), and the one answer they cannot make
 * from days alone: the distinct accounts of a period that `from` cuts.
 */
export const ACCOUNT_DAYS = accountDays("{projected}");

/** `denom`'s entries of a pair of arrays (denoms, values), summed. */
const ofDenom = (values: string, denoms: string) =>
  `arraySum(arrayFilter((a, d) -> d = {denom:String}, ${values}, ${denoms}))`;

/** The parts of a day (transfers and holders: of `denom`). */
export const ACCOUNT_PARTS: Readonly<Record<string, string>> = {
  active: "active",
  active_week: "active_week",
  active_month: "active_month",
  active_year: "active_year",
  new_accounts: "new_accounts",
  native_transfers: `evm_transfers + ${ofDenom("bank_transfers", "bank_denoms")}`,
  holders: `toInt64(${ofDenom("holders_in", "holder_denoms")}) - toInt64(${ofDenom("holders_out", "holder_denoms")})`,
};

/** The part of each day that counts the accounts first active in its period, by resolution. */
export const ACTIVE_PER: Readonly<Record<Resolution, string>> = {
  DAY: "active",
  WEEK: "active_week",
  MONTH: "active_month",
  YEAR: "active_year",
};

/**
 * Distinct accounts active from day `from` to day `to` (YYYY-MM-DD), up to the projected height:
 * from the first height after the days before `from` to the last of `to` (the projected one when
 * `to` is its day or later).
 */
const ACTIVE_BETWEEN = `SELECT toString(uniqExact(address)) AS n FROM {db}.account_activity
  WHERE height BETWEEN ${settledBefore("toDate({from:String})", "account_day_stats")}
    AND if(toDate({to:String}) >= ${dayOf("{projected}")},
      {projected},
      (SELECT max(max_height) FROM {db}.account_day_stats FINAL WHERE day <= toDate({to:String})))
    AND height <= {projected}`;

type Query = { readonly from?: string; readonly to?: string; readonly resolution: Resolution };

/**
 * The days of the period cut by `from` (the first point's, when `from` is after the period's
 * first day), at a resolution coarser than a day, for a chart counting distinct accounts (`per`):
 * from `from` to the point's end (or `to`). Undefined when no period is cut. Pure.
 */
export const cutOf = (
  chart: Chart,
  points: readonly Point[],
  q: Query,
): { from: string; to: string } | undefined => {
  const first = points[0];
  if (first === undefined || q.from === undefined || q.resolution === "DAY") return undefined;
  if (!("per" in chart.measure) || chart.measure.per === undefined) return undefined;
  if (q.from <= first.date || periodOf(q.from, q.resolution).date !== first.date) return undefined;
  return { from: q.from, to: q.to !== undefined && q.to < first.date_to ? q.to : first.date_to };
};

/**
 * The points with the period `from` cuts (cutOf) read as the distinct accounts of its days in
 * range: its days' first accounts of the period leave out those active before `from` too.
 */
export const cutPeriod = (
  db: DbShape,
  chart: Chart,
  points: readonly Point[],
  q: Query,
): Effect.Effect<readonly Point[], StoreFailure> => {
  const cut = cutOf(chart, points, q);
  if (cut === undefined) return Effect.succeed(points);
  return Effect.map(db.query<{ n: string }>(ACTIVE_BETWEEN, cut), ([r]) => [
    { ...points[0]!, value: r?.n ?? "0" },
    ...points.slice(1),
  ]);
};
