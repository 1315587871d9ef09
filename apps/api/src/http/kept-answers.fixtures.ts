import type { IncomingHttpHeaders } from "node:http";
import { Effect, Metric } from "effect";
import { expect } from "vitest";
import { Db } from "../db.ts";
import { servedApi } from "./served-api.fixtures.ts";

/**
 * The API the kept-answers tests ask (see servedApi): anonymous clients allowed 4 requests a
 * minute, the key `k-app` 1000.
 */
export const keptAnswersApi = async () => {
  const { ch, db, app, runtime, base } = await servedApi("api-app", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 4,
    apiKeys: new Map([["k-app", 1000]]),
  });
  const apiDb = runtime.runSync(
    Effect.gen(function* () {
      return yield* Db;
    }),
  );
  /** Blocks up to `height` are projected, and the API has read it. */
  const project = async (height: number, txsTotal: number) => {
    await ch.insert({
      table: `${db}.progress`,
      values: [{ name: "projector", height, txs_total: txsTotal }],
      format: "JSONEachRow",
    });
    // the API re-reads the height every 250 ms: read now, as the stream does before announcing it
    const st = await Effect.runPromise(apiDb.refresh);
    expect(st.height).toBe(height);
  };
  return { ch, db, app, apiDb, base, project };
};

export const key = { authorization: "Bearer k-app" };

/** An answer's headers but those that change from one answer to the next. */
export const steady = (headers: Headers | IncomingHttpHeaders) =>
  Object.fromEntries(
    (headers instanceof Headers ? [...headers] : Object.entries(headers))
      .map(([k, v]) => [k.toLowerCase(), String(v)])
      .filter(
        ([k]) => !["x-request-id", "x-ratelimit-remaining", "date", "retry-after"].includes(k!),
      ),
  );

/** The requests the metrics counted under `route` (with `status`, if given). */
export const requestsCounted = (route: string, status?: number) =>
  Effect.runSync(Metric.snapshot)
    .filter(
      (s) =>
        s.id === "api_requests_total" &&
        s.attributes?.route === route &&
        (status === undefined || s.attributes?.status === String(status)),
    )
    .reduce((n, s) => n + Number((s.state as { count: number }).count), 0);
