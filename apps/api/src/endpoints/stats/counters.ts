import { Effect } from "effect";
import { item } from "../endpoint.ts";
import { accountCounters } from "./account-counters.ts";
import { countersOf, stateCounters } from "./counter-values.ts";
import { daysOf, last24h } from "./daily.ts";
import { nativeDenom } from "./denom.ts";
import { entityCounters } from "./entity-counters.ts";
import { activeValidators, levelDays } from "./levels.ts";

/** Blockscout stats' counters, current to the last projected block (docs/analytics.md). */
export const statsCounters = item(
  {
    path: "/stats/counters",
    summary: "Counters (Blockscout stats' shape), current to the last projected block",
    tag: "stats",
    params: {},
    example: {},
  },
  ({ db, settings }) =>
    Effect.gen(function* () {
      const denom = nativeDenom(settings);
      const days = yield* daysOf(db, "chain", denom);
      const recent = yield* last24h(db, denom);
      const levels = yield* levelDays(db, denom);
      const validators = yield* activeValidators(db);
      return {
        counters: [
          ...countersOf(days, recent, denom),
          ...stateCounters(levels.at(-1), validators, denom),
          ...(yield* entityCounters(db, denom)),
          ...accountCounters(yield* daysOf(db, "accounts", denom)),
        ],
      };
    }),
);
