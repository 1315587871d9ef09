import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import {
  type IndexStore,
  LogsIndex,
  Policy,
  RpcProxy,
  SubscriptionHub,
  UpstreamPool,
} from "@explorer/rpc-proxy";
import { log } from "@explorer/service/log";
import { Effect } from "effect";
import { LRUCache } from "lru-cache";
import { Db } from "../db.ts";
import { NodeLink } from "../endpoints/etherscan/node.ts";
import type { Runtime } from "../http/app.ts";
import { RpcAccess } from "./access.ts";
import type { RpcSettings } from "./config.ts";
import { httpHandler } from "./http-handler.ts";
import { wsHandler } from "./ws-handler.ts";

/** The index as the proxy reads it: the API's store, its current table set and projected height. */
export const indexStore = (runtime: Runtime): IndexStore => {
  let low: { db: string; height: number } | undefined;
  return {
    range: () =>
      runtime.runPromise(
        Effect.gen(function* () {
          const db = yield* Db;
          const st = db.peek() ?? (yield* db.state);
          if (st.height === 0) return undefined;
          if (low?.db !== st.db) {
            const rows = yield* db.query<{ h: string }>("SELECT min(height) AS h FROM {db}.blocks");
            low = { db: st.db, height: Number(rows[0]?.h ?? 1) || 1 };
          }
          return { low: low.height, high: st.height };
        }),
      ),
    query: <T>(sql: string, params: Record<string, unknown>) =>
      runtime.runPromise(
        Effect.gen(function* () {
          return yield* (yield* Db).query<T>(sql, params);
        }),
      ),
  };
};

const pathOf = (url: string | undefined) => {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q < 0 ? u : u.slice(0, q);
};

/** The nodes' answers kept: up to 200,000 of them and `bytes` of their text, least recently used first. */
const nodeAnswers = (bytes: number) => {
  const lru = new LRUCache<string, string>({ max: 200_000, maxSize: Math.max(1, bytes) });
  return {
    get: (key: string) => lru.get(key),
    set: (key: string, value: string, weight: number) =>
      void lru.set(key, value, { size: Math.max(1, weight) }),
  };
};

/**
 * Puts the JSON-RPC proxy on the API's HTTP server: POST {rpc_http_url} and WebSocket upgrades
 * at the same path ({rpc_ws_url}). Other requests and upgrades (REST, the Socket.IO stream) pass
 * through untouched, whichever is attached first. Without the API's runtime there is no index:
 * every call goes to the nodes.
 */
export const attachRpc = async (server: HttpServer, settings: RpcSettings, runtime?: Runtime) => {
  const pool = new UpstreamPool(settings.upstreams, settings.pool);
  await pool.start();
  const proxy = new RpcProxy({
    policy: new Policy(settings.policy),
    pool,
    ...(runtime ? { index: new LogsIndex(indexStore(runtime), settings.logs) } : {}),
    cache: nodeAnswers(settings.cacheBytes),
    batchLimit: settings.batchLimit,
    coalesce: settings.coalesce,
    ...(settings.chainId !== undefined ? { chainId: settings.chainId } : {}),
  });
  // The Etherscan-style API's node calls, this API's alone.
  const link = runtime?.runSync(
    Effect.gen(function* () {
      return yield* NodeLink;
    }),
  );
  link?.use(proxy);
  const hub = new SubscriptionHub(pool, settings.pool.timeoutMs);
  const access = new RpcAccess(settings);
  const onHttp = httpHandler(proxy, access, settings);
  const ws = wsHandler(proxy, hub, access, settings);

  const others = server.listeners("request") as ((
    req: IncomingMessage,
    res: ServerResponse,
  ) => void)[];
  server.removeAllListeners("request");
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (pathOf(req.url) === settings.path)
      onHttp(req, res).catch((e: unknown) => {
        // a client that hung up mid-body, or a bug: never the process
        if (!res.headersSent) res.writeHead(400).end();
        else res.destroy();
        if ((e as NodeJS.ErrnoException)?.code !== "ECONNRESET")
          log.error("rpc: request failed", { error: String((e as Error)?.stack ?? e) });
      });
    else for (const l of others) l.call(server, req, res);
  };
  server.on("request", onRequest);
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(req.url) === settings.path) ws.upgrade(req, socket, head);
    else if (server.listenerCount("upgrade") === 1) socket.destroy(); // nobody else serves it
  };
  server.on("upgrade", onUpgrade);

  return {
    proxy,
    pool,
    hub,
    close: async () => {
      link?.use(undefined);
      server.off("upgrade", onUpgrade);
      server.off("request", onRequest);
      for (const l of others) server.on("request", l);
      await ws.close();
      hub.close();
      pool.close();
    },
  };
};
