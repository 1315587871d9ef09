import { Effect } from "effect";
import { BadRequest, NotFound } from "../../http/errors.ts";
import { item } from "../endpoint.ts";
import { path, query, queryOneOf } from "../param.ts";
import { cutPeriod } from "./account-days.ts";
import { chartDays } from "./chart-days.ts";
import { CHARTS, chartInfo } from "./charts.ts";
import { nativeDenom } from "./denom.ts";
import { RESOLUTIONS } from "./periods.ts";
import { scopeOf } from "./scope-params.ts";
import { series } from "./series.ts";
import { typeOf } from "./typed.ts";

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
      type: query(
        "string",
        "newMessages: one message type URL; newTokenTransfers: one token type (CFC-20, CFC-721, ERC-1155)",
        { maxLength: 256 },
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
      const typed = typeOf(chart, params.type);
      if (typeof typed === "string") return yield* Effect.fail(new BadRequest({ message: typed }));
      const days = yield* chartDays(db, chart, denom, scope, typed);
      const resolution = params.resolution ?? "DAY";
      const q = { from, to, resolution };
      return {
        chart: yield* cutPeriod(db, chart, series(days, chart.measure, q), q),
        info: { ...chartInfo(chart, denom), resolutions: [resolution] },
      };
    }),
);
