import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Option, Redacted } from "effect";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApi } from "../main.ts";
import { parseApiKeys } from "./app.ts";

/**
 * The API's guards over a real (empty) store: API keys, rate limits per key and per IP, CORS,
 * the request body limit, requests Node's parser refuses, and secrets kept out of the logs.
 */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "api-guards-")) });
await ensureCurrentSet(ch, "explorer");
const SECRET = "k-secret-7f3a9c";
const { app, runtime } = buildApi(ch, "explorer", {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 5,
  apiKeys: new Map([
    ["k-small", 3],
    ["k-fast", 120],
    [SECRET, 1000],
  ]),
  maxBodyBytes: 1000,
});
const server = app.listen(0, "127.0.0.1");
await new Promise((r) => server.once("listening", r));
const port = (server.address() as AddressInfo).port;
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await runtime.dispose();
  await ch.close().catch(() => {});
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: string };
}

/** A request from a given loopback address (each is its own client IP). */
const call = (
  path: string,
  o: {
    from?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    port?: number;
  } = {},
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: o.port ?? port,
        path,
        method: o.method ?? "GET",
        localAddress: o.from ?? "127.0.0.1",
        headers: o.headers,
      },
      (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text ? JSON.parse(text) : {},
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(o.body);
  });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const DOC = "/api/1.0/openapi.json";

/** Raw bytes on a socket: for requests node:http would not send. */
const rawExchange = (bytes: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1", () => s.write(bytes));
    let out = "";
    s.on("data", (d) => {
      out += d.toString();
    });
    s.on("end", () => resolve(out));
    s.on("error", reject);
  });

describe("API keys", () => {
  it("an unknown key is a 401 {error}, never served as anonymous", async () => {
    for (const authorization of [
      "Bearer wrong",
      "Bearer",
      "Basic YTpi",
      `Bearer ${SECRET}x`,
      "k-small",
    ]) {
      const r = await call(DOC, { from: "127.0.0.9", headers: { authorization } });
      expect(r.status, authorization).toBe(401);
      expect(r.body.error).toMatch(/API key/);
      expect(JSON.stringify(r)).not.toContain(SECRET);
    }
    expect((await call(DOC, { headers: bearer(SECRET) })).status).toBe(200);
    // an empty one (HTTP trims spaces alone to it) is no credential: anonymous
    for (const authorization of ["", "   "])
      expect((await call(DOC, { from: "127.0.0.10", headers: { authorization } })).status).toBe(
        200,
      );
  });

  it("a wrong key spends its address's allowance: guessing keys is limited as anonymous requests are", async () => {
    const from = "127.0.0.12";
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(await call(DOC, { from, headers: bearer(`guess-${i}`) }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(answers[0]!.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(answers[4]!.headers["x-ratelimit-remaining"]).toBe("0");
    expect(Number(answers[5]!.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // the same budget as the address's anonymous requests; a right key has its own
    expect((await call(DOC, { from })).status).toBe(429);
    expect((await call(DOC, { from, headers: bearer(SECRET) })).status).toBe(200);
  });

  it("a key may come as the password of HTTP Basic (URL credentials), on its own budget", async () => {
    const basic = (s: string) => ({
      authorization: `Basic ${Buffer.from(s).toString("base64")}`,
    });
    const r = await call(DOC, { from: "127.0.0.10", headers: basic(`:${SECRET}`) });
    expect(r.status).toBe(200);
    expect(r.headers["x-ratelimit-limit"]).toBe(
      (await call(DOC, { from: "127.0.0.11", headers: bearer(SECRET) })).headers[
        "x-ratelimit-limit"
      ],
    );
    expect((await call(DOC, { from: "127.0.0.10", headers: basic(`user:${SECRET}`) })).status).toBe(
      200,
    );
    const wrong = await call(DOC, { from: "127.0.0.10", headers: basic(`${SECRET}:x`) });
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong)).not.toContain(SECRET);
  });

  it("each key has its own limit: past it, a 429 with retry-after and {error}; others unaffected", async () => {
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await call(DOC, { headers: bearer("k-small") }));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(seen[0]!.headers["x-ratelimit-limit"]).toBe("3");
    const limited = seen[3]!;
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited.body.error).toMatch(/rate limit of 3 requests per minute/);
    expect((await call(DOC, { headers: bearer(SECRET) })).status).toBe(200);
    expect((await call(DOC, { from: "127.0.0.8" })).status).toBe(200);
  });

  it("retry-after is honest: after waiting that long the key is served again", async () => {
    let last: Answer | undefined;
    // Until the bucket is empty: it refills 2 a second, so a slow host needs more than 120 calls.
    for (let i = 0; i < 2000 && last?.status !== 429; i++)
      last = await call(DOC, { headers: bearer("k-fast") });
    expect(last?.status).toBe(429);
    const wait = Number(last!.headers["retry-after"]);
    expect(wait).toBe(1);
    await new Promise((r) => setTimeout(r, wait * 1000 + 100));
    expect((await call(DOC, { headers: bearer("k-fast") })).status).toBe(200);
  }, 120_000);

  it("API_KEYS with a limit that is not a positive integer is refused, without quoting the key", () => {
    const parse = (v: string) => parseApiKeys(Option.some(Redacted.make(v)), 60);
    expect(parse("a:10, b")).toEqual(
      new Map([
        ["a", 10],
        ["b", 600],
      ]),
    );
    for (const bad of ["a:abc", "a:-1", "a:0", "a:1e3", "a:10:20", "a:"]) {
      expect(() => parse(bad), bad).toThrow(/API_KEYS: entry 1/);
      expect(() => parse(bad)).not.toThrow(/\ba\b:/);
    }
  });
});

describe("anonymous clients", () => {
  it("are limited per IP; X-Forwarded-For does not buy a new allowance", async () => {
    const from = "127.0.0.2";
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(DOC, { from })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const spoofed = await call(DOC, { from, headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(spoofed.status).toBe(429);
    expect(spoofed.body.error).toMatch(/rate limit of 5 requests per minute/);
    expect((await call(DOC, { from: "127.0.0.3" })).status).toBe(200);
  });

  it("behind a trusted proxy (--trusted-proxies 1): each address it forwards for has its own allowance; what the client wrote before it counts for nothing", async () => {
    const behind = buildApi(ch, "explorer", {
      prefix: "cosmos",
      nativeCoins: new Map([["test", "atest"]]),
      rateLimitPerMinute: 5,
      apiKeys: new Map(),
      trustedProxies: 1,
    });
    const proxied = behind.app.listen(0, "127.0.0.1");
    await new Promise((r) => proxied.once("listening", r));
    const at = (proxied.address() as AddressInfo).port;
    const via = (xff: string) =>
      call(DOC, { from: "127.0.0.60", port: at, headers: { "x-forwarded-for": xff } });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await via("198.51.100.1")).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      // the client's own X-Forwarded-For, then the address the proxy appended: the latter counts
      expect((await via("203.0.113.9, 198.51.100.1")).status).toBe(429);
      expect((await via("198.51.100.2")).status).toBe(200);
    } finally {
      await new Promise((r) => proxied.close(r));
      await behind.runtime.dispose();
    }
  });

  it("a load balancer's probes are never limited, nor do they spend the allowance of its address", async () => {
    const from = "127.0.0.40";
    for (let i = 0; i < 8; i++) {
      expect((await call("/health", { from })).status).toBe(200);
      expect((await call("/ready", { from })).status).toBe(200);
      expect((await call("/ready", { from, method: "HEAD" })).status).toBe(200);
    }
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(DOC, { from })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await call("/ready", { from })).status).toBe(200); // limited, its probes still answer
  });
});

describe("/ready on the API's port", () => {
  it("a failed check says unavailable (its reason, which may name hosts, is logged); probes share one run a second", async () => {
    let runs = 0;
    const api = buildApi(
      ch,
      "explorer",
      { prefix: "cosmos", nativeCoins: new Map(), rateLimitPerMinute: 5, apiKeys: new Map() },
      undefined,
      [
        {
          name: "node",
          check: async () => {
            runs++;
            throw new Error("connect ECONNREFUSED node.internal:26657");
          },
        },
      ],
    );
    const s = api.app.listen(0, "127.0.0.1");
    await new Promise((r) => s.once("listening", r));
    const logged = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const at = (s.address() as AddressInfo).port;
      const answers = await Promise.all(
        [1, 2, 3].map(() => call("/ready", { port: at, from: "127.0.0.70" })),
      );
      expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
      expect(answers[0]!.body).toMatchObject({
        ready: false,
        checks: {
          store: { ok: true },
          node: { ok: false, error: expect.stringMatching(/unavailable/) },
        },
      });
      expect(JSON.stringify(answers)).not.toContain("node.internal");
      expect(runs).toBe(1);
      expect(logged.mock.calls.map(([l]) => String(l)).join("")).toContain(
        "connect ECONNREFUSED node.internal:26657",
      );
    } finally {
      logged.mockRestore();
      await new Promise((r) => s.close(r));
      await api.runtime.dispose();
    }
  });
});

describe("CORS (any origin may read; no credentials)", () => {
  it("answers, errors included, carry access-control-allow-origin: * and never credentials", async () => {
    const origin = { origin: "https://explorer.example" };
    const answers = [
      await call(DOC, { from: "127.0.0.4", headers: origin }),
      await call("/api/1.0/no-such-route", { from: "127.0.0.4", headers: origin }),
      await call(DOC, { from: "127.0.0.4", headers: { ...origin, authorization: "Bearer nope" } }),
      await call(DOC, { headers: { ...origin, ...bearer("k-small") } }), // 429 by now
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 401, 429]);
    for (const a of answers) {
      expect(a.headers["access-control-allow-origin"]).toBe("*");
      expect(a.headers["access-control-allow-credentials"]).toBeUndefined();
    }
    // A script on another origin may read the rate limit's headers (the 429's retry-after too).
    const limited = answers[3]!;
    for (const h of ["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-request-id"]) {
      expect(limited.headers[h], h).toBeDefined();
      expect(String(limited.headers["access-control-expose-headers"]).split(", "), h).toContain(h);
    }
  });

  it("a preflight gets 204 with the methods and headers a browser may use", async () => {
    const r = await call("/api/1.0/txs", {
      method: "OPTIONS",
      from: "127.0.0.5",
      headers: {
        origin: "https://explorer.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-methods"]).toBe("GET, POST, OPTIONS");
    expect(r.headers["access-control-allow-headers"]).toBe("authorization, content-type");
  });
});

describe("request size", () => {
  it("a body declared beyond the limit is a 413 {error} before any of it is sent", async () => {
    const r = await new Promise<Answer>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/1.0/txs",
          headers: { "content-type": "application/json", "content-length": "1001" },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => {
            text += c;
          });
          res.on("end", () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
            req.destroy();
          });
        },
      );
      req.on("error", reject);
      req.flushHeaders(); // headers only: the server must answer without waiting for the body
    });
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("request body larger than 1000 bytes");
    expect(r.headers.connection).toBe("close");
  });

  it("a request head beyond 16 KiB is a 431 {error}; a malformed request a 400 {error}", async () => {
    const big = await rawExchange(
      `GET ${DOC} HTTP/1.1\r\nhost: x\r\nx-fill: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.split("\r\n\r\n")[1]!).error).toMatch(/larger than 16 KiB/);
    expect(big.toLowerCase()).toContain("access-control-allow-origin: *");
    for (const bad of ["NOT HTTP AT ALL\r\n\r\n", `GET /a\u00ffb HTTP/1.1\r\nhost: x\r\n\r\n`]) {
      const out = await rawExchange(bad);
      expect(out, bad).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(out.split("\r\n\r\n")[1]!).error).toBe("malformed HTTP request");
    }
  });

  it("a method no route has is a 405 (on a route) or a 404, never a 501", async () => {
    const onRoute = await call(DOC, { method: "PROPFIND", headers: bearer(SECRET) });
    expect(onRoute.status).toBe(405);
    expect(onRoute.body.error).toMatch(/PROPFIND not allowed/);
    const elsewhere = await call("/api/1.0/nothing", { method: "TRACE", headers: bearer(SECRET) });
    expect(elsewhere.status).toBe(404);
    // GET on POST /contracts/verify's path is that route's wrong method, not a bad address
    const verify = await call("/api/1.0/contracts/verify", { headers: bearer(SECRET) });
    expect([verify.status, verify.headers.allow]).toEqual([405, "POST, OPTIONS"]);
    expect(verify.body.error).toMatch(/GET not allowed on \/api\/1\.0\/contracts\/verify/);
  });
});

describe("logs", () => {
  it("a store failure is a 500 logged with its request id (never the key); the API lives on", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await ch.close(); // the store goes away: every query now fails
      const r = await call("/api/1.0/txs?limit=3", {
        headers: { ...bearer(SECRET), "x-request-id": "req-guard-1" },
      });
      const anon = await call("/api/1.0/txs?limit=2", {
        from: "127.0.0.6",
        headers: { "x-request-id": "req-guard-2" },
      });
      expect([r.status, anon.status]).toEqual([500, 500]);
      expect(r.body.error).toBe("internal error (request id req-guard-1)");
      // Still serving (a failed state read once ended the process: an unhandled rejection).
      await new Promise((r) => setTimeout(r, 300));
      expect((await call(DOC, { headers: bearer(SECRET) })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const log = lines.join("");
    expect(log).toContain("req-guard-1");
    expect(log).toContain("req-guard-2");
    expect(log).not.toContain(SECRET);
    expect(log.toLowerCase()).not.toContain("bearer");
    expect(log.toLowerCase()).not.toContain("authorization");
  });
});
