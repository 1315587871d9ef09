import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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
