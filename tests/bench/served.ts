import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { buildApi } from "@explorer/api";
import Koa from "koa";
import { listenLocal } from "../lib/net.ts";

/** The API's options in every bench: the reference chain's prefix and coin, no rate limit, no keys. */
export const BENCH_API_OPTIONS = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 1e9,
  apiKeys: new Map<string, number>(),
};

/**
 * The API over a bench store with its record cache in `dir` (`off`: none, every read from the
 * store), returned once the cache holds the store's `blocks`, as on a server that has run a while:
 * `filling`, the seconds that took (from empty, or only what a kept cache lacks).
 */
export const apiWithRecords = async (
  ch: Parameters<typeof buildApi>[0],
  db: string,
  dir: string,
  blocks: number,
  off: boolean,
) => {
  const api = buildApi(ch, "explorer", {
    ...BENCH_API_OPTIONS,
    ...(!off && { recordCacheDir: join(dir, "api-records") }),
  });
  const t0 = performance.now();
  await api.records?.filledTo(db, blocks);
  return { ...api, filling: (performance.now() - t0) / 1000 };
};

/**
 * The API's request handler on a local port, counting the requests being answered: `settle`
 * waits for them, so that requests still being answered when a load run ends (its clients gone)
 * do not weigh on the next run. Beside it, a bare Koa endpoint answering a constant.
 */
export const servedWithBare = async (app: {
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}) => {
  let answering = 0;
  const handle = app.callback();
  const { server, port } = await listenLocal({
    listen: (p, host, cb) =>
      createServer((req, res) => {
        answering++;
        void handle(req, res).finally(() => answering--);
      }).listen(p, host, cb),
  });
  const settle = async () => {
    while (answering > 0) await new Promise((r) => setTimeout(r, 50));
  };
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.body = { ok: true };
  });
  const { server: bareServer, port: barePort } = await listenLocal(bare);
  return { server, port, settle, bareServer, barePort };
};

/**
 * A bare Koa endpoint that first spends `ms` of its thread (set before a run): the latencies any
 * one Node.js process gives at that cost a request, beside the API's run that measured the cost.
 * At 50 clients the tail grows far faster than the median: a plain Node.js server spending 0.5 ms
 * a request ran p50 27 ms, p99 350 ms under wrk on this 2-core machine.
 */
export const spendingBare = async () => {
  let ms = 0;
  const app = new Koa();
  app.use((ctx) => {
    const t = performance.now();
    while (performance.now() - t < ms);
    ctx.body = { ok: true };
  });
  const { server, port } = await listenLocal(app);
  return {
    url: `http://127.0.0.1:${port}/`,
    spend: (v: number) => {
      ms = v;
    },
    close: () => new Promise((r) => server.close(r)),
  };
};

/** `run` (a load run), and the ms this process's thread was busy per request meanwhile. */
export const threadMsPer = async <R extends { readonly requests: number }>(
  run: () => Promise<R>,
) => {
  const elu = performance.eventLoopUtilization();
  const r = await run();
  return { r, ms: performance.eventLoopUtilization(elu).active / Math.max(1, r.requests) };
};
