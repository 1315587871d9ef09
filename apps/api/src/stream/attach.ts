import {
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Duplex } from "node:stream";
import { Effect } from "effect";
import { Server } from "socket.io";
import { Db } from "../db.ts";
import type { Admission, Runtime } from "../http/app.ts";
import { clientIp } from "../http/client-ip.ts";
import { CORS } from "../http/cors.ts";
import { accountForms } from "../http/params.ts";
import { proposerMap, withProposer } from "../records/block.ts";
import type { HeightEvents } from "./events.ts";
import { StreamHub } from "./hub.ts";
import type { ProjectedSource } from "./source.ts";

export const STREAM_PATH = "/api/1.0/stream";

/** What OPTIONS /api/1.0/stream/new-block and …/new-txs answer (with CORS headers). */
export const streamDescriptions: Record<string, object> = {
  "new-block": {
    event: "new-block",
    transport: `Socket.IO v4, handshake path ${STREAM_PATH}`,
    payload: "the Block record of the new block",
    order: "heights in order, none skipped; sent after the block is fully projected",
    reconnect: "connect with auth {since: <height>} (or ?since=) to get what was missed",
    events: "all by default; connect with auth {events: [...]} (or ?events=) to get only some",
  },
  "new-txs": {
    event: "new-txs",
    also: "new-tx (one Transaction record per event)",
    transport: `Socket.IO v4, handshake path ${STREAM_PATH}`,
    payload: "the Transaction records of the new block (only blocks with transactions)",
    filter: "connect with ?address=<bech32 or 0x> to get only transactions involving that account",
    events: "connect with ?events=new-txs (or new-tx) to get each transaction once",
  },
};

/**
 * The heights from…to that the store holds, up to its projected height (an instance reading a
 * replica may hear of a height before the replica has it: the hub then asks again).
 */
const loader = (runtime: Runtime) => (from: number, to: number) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const db = yield* Db;
      // REST answers these heights by the time clients hear of them.
      const state = yield* db.refresh;
      const through = Math.min(to, state.height);
      if (through < from) return { events: [], through };
      // Both from the set that `through` was read from (a re-index may switch sets meanwhile).
      const blocks = yield* db.query<{ height: string; record: string; proposer_cons: string }>(
        `SELECT height, record, proposer_cons FROM ${state.db}.blocks FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height`,
        { a: from, b: through },
      );
      const txs = yield* db.query<{ height: string; record: string; addresses: string[] }>(
        `SELECT height, record, addresses FROM ${state.db}.txs FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height, idx`,
        { a: from, b: through },
      );
      const proposers = yield* proposerMap;
      const byHeight = new Map<number, HeightEvents["txs"]>();
      for (const t of txs) {
        const list = byHeight.get(Number(t.height)) ?? [];
        list.push({ record: JSON.parse(t.record), addresses: t.addresses });
        byHeight.set(Number(t.height), list);
      }
      const events = blocks.map((b) => ({
        height: Number(b.height),
        block: withProposer(b, proposers),
        txs: byHeight.get(Number(b.height)) ?? [],
      }));
      return { events, through };
    }),
  );

export interface StreamOptions {
  /** The REST API's key check and rate limit, applied to each new connection (its handshake). */
  readonly admission?: (authorization: string, ip: string) => Admission;
  /** Connections open at once from one address (each holds a replay and a send queue); none: no cap. */
  readonly maxConnectionsPerIp?: number;
  /** Proxies in front that append to X-Forwarded-For (clientIp). */
  readonly trustedProxies?: number;
}

/** A new Engine.IO session (its handshake), not a request of a session already open. */
const isHandshake = (req: IncomingMessage) =>
  (req.url ?? "").startsWith(`${STREAM_PATH}/`) &&
  !new URL(req.url ?? "/", "http://stream").searchParams.has("sid");

/**
 * Puts the Socket.IO stream on the API's HTTP server, fed by `source`. OPTIONS on the two event
 * paths is answered before Socket.IO sees the request (its path would otherwise claim them). A new
 * connection passes the REST API's key check and rate limit (`opts.admission`) and the cap of
 * connections per address before Socket.IO sees it: refused with 401 or 429 and `{error}`.
 */
export const attachStream = async (
  server: HttpServer,
  runtime: Runtime,
  source: ProjectedSource,
  prefix: string,
  opts: StreamOptions = {},
) => {
  // Where the stream starts, known before any client connects (a reconnecting client's `since`
  // is measured against it).
  const state = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Db).state;
    }),
  );
  const io = new Server(server, { path: STREAM_PATH, serveClient: false, cors: { origin: "*" } });
  const maxPerIp = opts.maxConnectionsPerIp ?? Number.POSITIVE_INFINITY;
  const open = new Map<string, number>();
  io.engine.on(
    "connection",
    (s: { request: IncomingMessage; once(e: "close", f: () => void): void }) => {
      const ip = clientIp(s.request, opts.trustedProxies ?? 0);
      open.set(ip, (open.get(ip) ?? 0) + 1);
      s.once("close", () => {
        const n = (open.get(ip) ?? 1) - 1;
        if (n > 0) open.set(ip, n);
        else open.delete(ip);
      });
    },
  );
  /** Why a new connection is refused, or undefined. */
  const refusal = (req: IncomingMessage) => {
    const ip = clientIp(req, opts.trustedProxies ?? 0);
    if ((open.get(ip) ?? 0) >= maxPerIp)
      return {
        status: 429,
        error: `at most ${maxPerIp} stream connections at once from one address`,
        headers: {},
      };
    const a = opts.admission?.(String(req.headers.authorization ?? ""), ip);
    return a?.refused ? { ...a.refused, headers: a.headers } : undefined;
  };
  const engineListeners = server.listeners("request") as ((
    req: IncomingMessage,
    res: ServerResponse,
  ) => void)[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const m = /^\/api\/1\.0\/stream\/(new-block|new-txs)\/?(\?.*)?$/.exec(req.url ?? "");
    if (m && req.method === "OPTIONS") {
      res.writeHead(200, { "content-type": "application/json", ...CORS });
      res.end(JSON.stringify(streamDescriptions[m[1]!]));
      return;
    }
    const no = req.method === "GET" && isHandshake(req) ? refusal(req) : undefined;
    if (no) {
      res.writeHead(no.status, { "content-type": "application/json", ...CORS, ...no.headers });
      res.end(JSON.stringify({ error: no.error }));
      return;
    }
    for (const l of engineListeners) l.call(server, req, res);
  });
  // A WebSocket connection without a polling session first (transports: ["websocket"]).
  const upgradeListeners = server.listeners("upgrade") as ((
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ) => void)[];
  server.removeAllListeners("upgrade");
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const no = isHandshake(req) ? refusal(req) : undefined;
    if (no) {
      const body = JSON.stringify({ error: no.error });
      const headers = Object.entries({ ...no.headers, "content-type": "application/json" })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.end(
        `HTTP/1.1 ${no.status} ${STATUS_CODES[no.status]}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    for (const l of upgradeListeners) l.call(server, req, socket, head);
  });
  const hub = new StreamHub(io, loader(runtime), (a) => {
    try {
      return accountForms(a, prefix).evm;
    } catch {
      return undefined;
    }
  });
  hub.startAt(state.height);
  const unsubscribe = source.subscribe((h) => void hub.projected(h));
  return {
    hub,
    close: async () => {
      unsubscribe();
      hub.close();
      await new Promise<void>((r) => io.close(() => r()));
    },
  };
};
