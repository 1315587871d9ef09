import { ROUTE_SPECS } from "@explorer/api";
import fc from "fast-check";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { problemWith, Tally } from "../lib/fuzz/expect.ts";
import { deepJson, invalidUtf8Json, jsonBody, jsonRpcBody } from "../lib/fuzz/json.ts";
import { type RawRequest, type RawResponse, rawRequest } from "../lib/fuzz/raw-http.ts";
import {
  encodeExact,
  hostileHttpRequest,
  hostileRequest,
  invalidRequest,
  literalSegments,
  paramsOf,
  validRequest,
} from "../lib/fuzz/requests.ts";
import { answerProblem, expectedAnswer, RPC_METHODS, targetedRpcBody } from "../lib/fuzz/rpc.ts";
import { fuzzOptions as opts, RUNS } from "../lib/fuzz/run.ts";
import { type Snapshot, serveIndex } from "../lib/fuzz/served-index.ts";
import { encodedHostile, hostileString, pct } from "../lib/fuzz/strings.ts";
import type { ValuePool } from "../lib/fuzz/values.ts";

/**
 * Issue 10 (bad input): property-based requests to every REST route and parameter, driven by the
 * route table (ROUTE_SPECS: a new route is fuzzed without touching this file). Valid values never
 * get a 400, one bad parameter always gets a 400 that names it, hostile strings, raw bytes that are
 * not UTF-8, broken escapes, odd methods, headers and bodies get a documented status with
 * `{error}`; never a 5xx, never a stack trace; and the index is the same afterwards. The JSON-RPC
 * proxy's WebSocket has its own file (rpc-ws-fuzz.test.ts) over the same setup.
 *
 * FUZZ_RUNS (default 40) runs per property and route; FUZZ_SEED replays a run.
 */
const KEY = "k-fuzz";
/** The paths the Etherscan-compatible API answers, each exactly (a query may follow). */
const ETHERSCAN_PATH =
  /^\/(api|v2\/api|api\/1\.0\/etherscan(\/v2)?|api\/1\.0\/verify-contract)(\?|$)/;
const tally = new Tally();
const literals = literalSegments(ROUTE_SPECS);
let port: number;
let pool: ValuePool;
let before: Snapshot;
let served: Awaited<ReturnType<typeof serveIndex>>;

const send = async (label: string, r: RawRequest): Promise<RawResponse> => {
  const res = await rawRequest(port, r);
  tally.add(label, res.status);
  return res;
};
const get = (label: string, path: string) => send(label, { method: "GET", path });
const json = async (path: string) => JSON.parse((await get("setup", path)).text);

beforeAll(async () => {
  served = await serveIndex(inject("logDir"), KEY);
  port = served.port;
  const txs = (await json("/api/1.0/txs?limit=100")).docs as any[];
  const tokens = (await json("/api/1.0/tokens?limit=100")).docs as any[];
  pool = {
    prefix: "cosmos",
    accounts: [...new Set(txs.flatMap((t) => t.addresses as string[]))].slice(0, 30),
    validators: (await json("/api/1.0/validators")).docs.map(
      (v: any) => v.validator.operator_address,
    ),
    contracts: tokens.map((t) => t.contractAddress),
    cosmosTxHashes: txs.map((t) => t.txhash),
    evmHashes: txs.flatMap((t) => t.evm_txhashes as string[]),
    heights: txs.map((t) => t.height),
    tokenIds: (await json("/api/1.0/token-inventory?limit=100")).docs.map((i: any) => i.tokenId),
    symbols: tokens.map((t) => t.tokenSymbol ?? t.symbol).filter(Boolean),
    messageTypes: [
      ...new Set(txs.flatMap((t) => t.body.messages.map((m: any) => m["@type"]))),
    ] as string[],
    byName: { type: ["test", "TEST", "Test"], apikey: [KEY] },
  };
  expect(pool.accounts.length * pool.evmHashes.length * pool.tokenIds.length).toBeGreaterThan(0);
  before = await served.snapshot();
}, 300_000);

afterAll(async () => {
  process.stdout.write(
    `fuzz: ${tally.total} requests, ${RUNS} runs per property and route\n  ${tally.lines().join("\n  ")}\n`,
  );
  await served?.close();
});

const noProblem = (r: RawResponse, allowed: readonly number[], method?: string) => {
  const problem = problemWith(r, allowed, { method });
  if (problem) throw new Error(problem);
};

const GETS = ROUTE_SPECS.filter((s) => s.method === "get");
const POSTS = ROUTE_SPECS.filter((s) => s.method === "post");

describe("valid values: never a 400 or a 5xx; unknown parameters change nothing", () => {
  for (const spec of GETS)
    it(`GET /api/1.0${spec.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(validRequest(spec, pool), async ({ request, unknown }) => {
          const plain = await get("valid", encodeExact(request));
          noProblem(plain, [200, 404]);
          const extra = await get("valid + unknown parameters", encodeExact(request, unknown));
          expect(extra.status).toBe(plain.status);
          expect(extra.text).toBe(plain.text);
          // a CSV answer (format=csv) is checked by api-csv.test.ts
          const csv = request.query.some(([n, v]) => n === "format" && v.toLowerCase() === "csv");
          if (plain.status === 200 && spec.list && !csv) {
            const body = JSON.parse(plain.text);
            const limit = Number(request.query.find(([n]) => n === "limit")?.[1] ?? 10);
            expect(body.docs.length).toBeLessThanOrEqual(limit);
            expect(body.limit).toBe(limit);
          }
        }),
        opts(),
      );
    });
});

describe("one bad parameter: a 400 {error} that names it (NOTOK in an envelope of its own)", () => {
  for (const spec of GETS.filter((s) => paramsOf(s).length > 0))
    it(`GET /api/1.0${spec.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(invalidRequest(spec, pool, literals), async ({ request, bad }) => {
          const r = await get("one bad parameter", encodeExact(request));
          const named = bad === "sort" ? "sort" : bad;
          if (spec.refused) {
            // A route with an envelope of its own (Etherscan's) refuses within it, HTTP 200.
            noProblem(r, [200]);
            expect(JSON.parse(r.text)).toMatchObject({ status: "0", message: "NOTOK" });
            expect(JSON.parse(r.text).result).toContain(named);
          } else {
            noProblem(r, [400]);
            expect(JSON.parse(r.text).error).toContain(named);
          }
        }),
        opts(),
      );
    });
});

describe("hostile strings, raw bytes and broken escapes in every parameter", () => {
  for (const spec of GETS)
    it(`GET /api/1.0${spec.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(spec, literals), async (path) => {
          noProblem(await get("hostile parameters", path), [200, 400, 404, 414, 431]);
        }),
        opts(),
      );
    });
});

/**
 * JSON-RPC over HTTP as docs/json-rpc.md words it: 415 for a type other than JSON; else the
 * answer the body is due (JSON-RPC errors with documented codes, ids echoed; nothing for
 * notifications alone), HTTP 401 only for a single call of a private method.
 */
const rpcAnswered = (r: RawResponse, body: string | Buffer, type: string) => {
  if (!type.startsWith("application/json")) {
    expect(r.status, r.text).toBe(415);
    return;
  }
  const due = expectedAnswer(Buffer.from(body).toString("utf8"), served.rpcSettings.batchLimit);
  const problem =
    due.kind === "none" ? (r.text === "" ? undefined : r.text) : answerProblem(r.text, due);
  if (problem) throw new Error(problem);
  const privateCall = due.kind === "single" && JSON.parse(r.text).error?.code === -32010;
  expect(r.status, r.text.slice(0, 300)).toBe(privateCall ? 401 : 200);
};

describe("POST bodies gone wrong: JSON of every shape, deep JSON, bytes that are not UTF-8, JSON-RPC", () => {
  const body = fc.oneof(
    jsonBody,
    jsonRpcBody(RPC_METHODS),
    targetedRpcBody(),
    fc.constant(invalidUtf8Json()),
  );
  const types = fc.constantFrom(
    "application/json",
    "application/x-www-form-urlencoded",
    "text/plain",
    "application/json; charset=utf-8",
  );
  for (const path of [...POSTS.map((s) => `/api/1.0${s.path}`), "/rpc"])
    it(`POST ${path}`, async () => {
      await fc.assert(
        fc.asyncProperty(body, types, async (b, type) => {
          const r = await send("post bodies", {
            method: "POST",
            path,
            headers: { "content-type": type, authorization: `Bearer ${KEY}` },
            body: b,
          });
          // Never a fault. A refusal is a documented 4xx {error}; JSON-RPC answers as geth does.
          if (path === "/rpc") rpcAnswered(r, b, type);
          else noProblem(r, [200, 400, 404, 409, 413, 415, 422, 503], "POST");
        }),
        opts(),
      );
    });
});

describe("whole requests gone wrong", () => {
  it("odd methods, mangled and unknown paths, odd headers and bodies (deep JSON, junk)", async () => {
    const body = fc
      .option(
        fc.oneof(
          jsonBody,
          jsonRpcBody(["eth_blockNumber", "eth_getBalance", "personal_unlockAccount"]),
          fc.constant(invalidUtf8Json()),
        ),
        { freq: 2 },
      )
      .map((b) => b ?? undefined);
    await fc.assert(
      fc.asyncProperty(hostileHttpRequest(ROUTE_SPECS, body), async (r) => {
        const res = await send("odd request", r);
        noProblem(res, [200, 204, 400, 401, 404, 405, 413, 414, 415, 431], r.method);
        // 415 only for a body sent as something other than JSON (or a form, where one is taken).
        if (res.status === 415) {
          expect(r.method).toBe("POST");
          expect(r.headers?.["content-type"] ?? "").not.toMatch(/^application\/json/);
        }
        // HTTP trims a header's value: one of spaces alone arrives empty, as no credential.
        const auth = r.headers?.authorization?.trim();
        // Refused before authentication: by size, or by Node's HTTP parser (a raw byte ≥ 0x80 in
        // the path), which answers 400 and closes the connection (the app's 400s keep it).
        const early =
          [413, 414, 431].includes(res.status) ||
          (res.status === 400 && res.headers.connection === "close");
        if (auth && !early && r.method !== "OPTIONS" && !r.path.startsWith("/api/1.0/stream")) {
          // Etherscan's paths refuse within their envelope, HTTP 200 (docs/etherscan.md).
          if (!ETHERSCAN_PATH.test(r.path)) expect(res.status, auth).toBe(401);
          else {
            expect(res.status, auth).toBe(200);
            if (r.method !== "HEAD")
              expect(JSON.parse(res.text)).toMatchObject({
                message: "NOTOK",
                result: "Invalid API Key",
              });
          }
        }
        if (r.method === "OPTIONS" && !early && !r.path.startsWith("/api/1.0/stream"))
          expect(res.status).toBe(204);
      }),
      opts(RUNS * 10),
    );
  });

  it("a key that is configured is accepted; any other is a 401, not anonymous access", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString.filter((k) => k.length < 1000),
        async (k) => {
          const bad = await send("api key", {
            method: "GET",
            path: "/api/1.0/stat",
            headers: { authorization: `Bearer ${pct(k)}x` },
          });
          noProblem(bad, [401]);
          const good = await send("api key", {
            method: "GET",
            path: "/api/1.0/stat",
            headers: { authorization: `Bearer ${KEY}` },
          });
          noProblem(good, [200]);
        },
      ),
      opts(),
    );
  });
});

describe("oversized requests", () => {
  it("a URL or a header beyond 16 KiB: 431 with {error}", async () => {
    noProblem(await get("oversized", `/api/1.0/search?value=${"a".repeat(20_000)}`), [414, 431]);
    noProblem(
      await send("oversized", {
        method: "GET",
        path: "/api/1.0/stat",
        headers: { "x-filler": "b".repeat(20_000) },
      }),
      [431],
    );
  });

  it("thousands of parameters: unknown ones ignored, a list beyond 100 values refused", async () => {
    const junk = Array.from({ length: 1500 }, (_, i) => `u${i}=${i}`).join("&");
    const plain = await get("oversized", "/api/1.0/txs?limit=5");
    const many = await get("oversized", `/api/1.0/txs?limit=5&${junk}`);
    expect(many.status).toBe(200);
    expect(many.text).toBe(plain.text);
    const ids = Array.from({ length: 1000 }, (_, i) => `tokenIds=${i}`).join("&");
    noProblem(await get("oversized", `/api/1.0/token-transfers?${ids}`), [400]);
  });

  it("a body declared beyond the limit is refused (413) before any of it is sent", async () => {
    for (const path of ["/api/1.0/txs", "/api/1.0/no-such-route", "/"]) {
      const r = await send("oversized", {
        method: "POST",
        path,
        headers: { "content-type": "application/json", "content-length": String(1e9) },
        body: { chunks: [] },
      });
      noProblem(r, [413]);
    }
  });

  it("a chunked body of megabytes and JSON nested 500,000 deep: refused, never buffered", async () => {
    const chunk = Buffer.alloc(64 * 1024, "[");
    for (const path of ["/api/1.0/txs", "/api/1.0/no-such-route"]) {
      const r = await send("oversized", {
        method: "POST",
        path,
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
        body: { chunks: Array.from({ length: 160 }, () => chunk) },
      });
      noProblem(r, [404, 405, 413]);
      const deep = await send("oversized", { method: "POST", path, body: deepJson(500_000) });
      noProblem(deep, [404, 405, 413]);
    }
  });
});

describe("the stream's handshake", () => {
  it("hostile engine.io queries: never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom("EIO", "transport", "sid", "t", "b64", "address", "since"),
            encodedHostile,
          ),
          {
            maxLength: 5,
          },
        ),
        async (q) => {
          const r = await get(
            "stream handshake",
            `/api/1.0/stream/?${q.map(([k, v]) => `${k}=${v}`).join("&")}`,
          );
          expect(r.status, r.text).toBeLessThan(500);
        },
      ),
      opts(),
    );
  });

  it("a malformed address filter gets an error-message event and is disconnected", async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileString.map((s) => Buffer.from(s).toString()), // well-formed: socket.io-client encodes it
        async (address) => {
          const c = io(`http://127.0.0.1:${port}`, {
            path: "/api/1.0/stream",
            transports: ["websocket"],
            forceNew: true,
            reconnection: false,
            query: { address },
          });
          try {
            // An address too long for a request line (e.g. 3,000 "é", 18 KB encoded) is refused
            // by the HTTP server before the stream sees it: 431, as for any oversized request.
            const message = await new Promise<unknown>((resolve, reject) => {
              c.on("error-message", resolve);
              c.on("connect_error", (e) =>
                /server response: 431/.test(
                  (e as { description?: { message?: string } }).description?.message ?? "",
                )
                  ? resolve(431)
                  : reject(e),
              );
              setTimeout(() => reject(new Error("no error-message within 20 s")), 20_000);
            });
            if (message === 431) tally.add("stream address filter", 431);
            else {
              expect(typeof (message as { error?: unknown }).error).toBe("string");
              tally.add("stream address filter", 400);
            }
          } finally {
            c.close();
          }
        },
      ),
      opts(Math.max(10, Math.floor(RUNS / 2))),
    );
  });
});

describe("stream: one address per connection", () => {
  it("`?address` given twice gets an error-message and is disconnected (not every transaction)", async () => {
    const a = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
    const b = "0x000000000000000000000000000000000000dead";
    // socket.io-client cannot repeat a query key: the Engine.IO handshake by hand (v4, websocket).
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/api/1.0/stream/?EIO=4&transport=websocket&address=${a}&address=${b}`,
    );
    const frames: string[] = [];
    const closed = new Promise<void>((resolve) => ws.on("close", () => resolve()));
    ws.on("message", (m) => {
      const text = m.toString();
      frames.push(text);
      if (text.startsWith("0")) ws.send("40"); // open: join the main namespace
      if (text === "2") ws.send("3"); // ping
    });
    await Promise.race([closed, new Promise((r) => setTimeout(r, 20_000))]);
    ws.terminate();
    const event = frames.find((f) => f.startsWith("42"));
    expect(event, frames.join(" | ")).toBeDefined();
    const [name, body] = JSON.parse(event!.slice(2)) as [string, { error: string }];
    expect(name).toBe("error-message");
    expect(body.error).toMatch(/one address per connection/);
    expect(frames).toContain("41"); // the server's disconnect
  });
});

describe("nothing changed", () => {
  it("table checksums, the list of tables and fixed answers are as before the fuzzing", async () => {
    const after = await served.snapshot();
    expect(after.tables).toEqual(before.tables);
    expect(after.sums).toEqual(before.sums);
    expect(after.answers).toEqual(before.answers);
  });
});
