import { Effect } from "effect";
import { item } from "../endpoint.ts";
import { chartInfo, SECTIONS } from "./charts.ts";
import { nativeDenom } from "./denom.ts";

/** The charts served, by section (Blockscout stats' shape): only charts that exist. */
export const statsLines = item(
  {
    path: "/stats/lines",
    summary: "Charts by section (Blockscout stats' shape)",
    tag: "stats",
    params: {},
    example: {},
  },
  ({ settings }) =>
    Effect.succeed({
      sections: SECTIONS.map((s) => ({
        id: s.id,
        title: s.title,
        charts: s.charts.map((c) => chartInfo(c, nativeDenom(settings))),
      })),
    }),
);
