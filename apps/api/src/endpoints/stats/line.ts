import { Effect } from "effect";
import { BadRequest, NotFound } from "../../http/errors.ts";
import { item } from "../endpoint.ts";
import { path, query, queryOneOf } from "../param.ts";
import { cutPeriod } from "./account-days.ts";
import { CHARTS, chartInfo } from "./charts.ts";
import { daysOf } from "./daily.ts";
import { nativeDenom } from "./denom.ts";
import { levelDays } from "./levels.ts";
import { RESOLUTIONS } from "./periods.ts";
import { scopeOf } from "./scope-params.ts";
import { series } from "./series.ts";

/** One chart's points (Blockscout stats' shape), its last point current to the last block. */
export const statsLine = item(
  {
    path: "/stats/lines/:id",
    summary: "A chart's points by UTC day, week (from Monday), month or year",
    tag: "stats",
    params: {
      id: path("string", "the chart's id, as /stats/lines lists it"),
      from: query("day", "first day (YYYY-MM-DD); default the chart's first"),
      to: query("day", "last day (YYYY-MM-DD); default the chart's last"),
      resolution: queryOneOf(RESOLUTIONS, "DAY (default), WEEK, MONTH or YEAR"),
      address: query("account", "the account of an address-scoped chart (0x… or bech32)"),
      contractAddress: query("contract", "the token of a token-scoped chart"),
      validator: query(
        "validator",
        "the validator of a validator-scoped chart (valoper or its account)",
      ),
    },
    example: { id: "newTxns", from: "2026-01-01", to: "2026-12-31", resolution: "WEEK" },
  },
  ({ params, db, settings }) =>
    Effect.gen(function* () {
      const chart = CHARTS.get(params.id);
      if (!chart) return yield* Effect.fail(new NotFound({ message: `no chart ${params.id}` }));
      // `from` after `to` is an empty range: no points
      const { from, to } = params;
      const denom = nativeDenom(settings);
      const scope = scopeOf(chart, params);
      if (typeof scope === "string") return yield* Effect.fail(new BadRequest({ message: scope }));
      const days =
        chart.source === "levels"
          ? yield* levelDays(db, denom)
          : yield* daysOf(db, chart.source, denom, scope);
      const resolution = params.resolution ?? "DAY";
      const q = { from, to, resolution };
      return {
        chart: yield* cutPeriod(db, chart, series(days, chart.measure, q), q),
        info: { ...chartInfo(chart, denom), resolutions: [resolution] },
      };
    }),
);
