import type { AddressInfo } from "node:net";
import { Option, Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { buildApi } from "../main.ts";
import { parseApiKeys } from "./app.ts";
import { type Answer, bearer, DOC, guardedApi, SECRET } from "./guarded-api.fixtures.ts";

/**
 * The API's guards over a real (empty) store: API keys, rate limits per key and per IP, and CORS on every answer
 * (a refusal too).
 */
const { ch, call } = await guardedApi();

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
