import { Readable } from "node:stream";
import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import type { Services } from "../http/app.ts";
import { CSV_MAX_ROWS, CSV_STEP, CSV_TYPE, csvLines, type Step } from "../http/csv.ts";
import type { ApiError } from "../http/errors.ts";
import { JsonText } from "../http/json-text.ts";
import type { Page } from "../http/list.ts";
import type { Exchange } from "./endpoint.ts";

/** A list's records as plain values (a transaction is kept as its JSON text). */
const stepOf = (envelope: unknown): Step => {
  const e = envelope as { docs: readonly unknown[]; hasNext: boolean };
  return {
    docs: e.docs.map((d) => (d instanceof JsonText ? d.toJSON() : d)),
    hasNext: e.hasNext,
  };
};

/** Step `n` of a CSV answer: the list's page `n` of CSV_STEP records. */
const stepPage = (n: number): Page => ({ page: n, limit: CSV_STEP, offset: (n - 1) * CSV_STEP });

/**
 * A list's CSV answer: every record it matches, in its order, streamed CSV_STEP at a time through
 * the list's own pages (so through its own filters and seeks), at most CSV_MAX_ROWS of them. The
 * store's state is read once: every step sees the same projected height, so no record is read twice
 * or skipped while blocks come in. The first step runs before the answer starts, so a bad filter
 * or a failing store is still a 4xx/5xx `{error}`; a later failure is the last line (csv.ts).
 */
export const csvAnswer = (
  db: DbShape,
  page: (db: DbShape, at: Page) => Effect.Effect<unknown, ApiError, Services>,
  http: Exchange,
  name: string,
  more: readonly string[] = [],
  max = CSV_MAX_ROWS,
) =>
  Effect.gen(function* () {
    const st = yield* db.state;
    const pinned: DbShape = { ...db, state: Effect.succeed(st), peek: () => st };
    const first = stepOf(yield* page(pinned, stepPage(1)));
    const run = Effect.runPromiseWith(yield* Effect.context<Services>());
    const next = (n: number) => run(page(pinned, stepPage(n))).then(stepOf);
    http.set("content-type", CSV_TYPE);
    http.set("content-disposition", `attachment; filename="${name}.csv"`);
    http.set("vary", "Accept");
    return Readable.from(csvLines(first, next, max, more));
  });
