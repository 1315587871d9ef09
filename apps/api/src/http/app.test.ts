import { mkdtempSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Effect, Metric } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { Db } from "../db.ts";
import { buildApi } from "../main.ts";

/**
 * The request path around the answers: kept answers (served before routing) come with the same
 * bytes and headers as fresh ones, still pass rate limits and API keys, carry request ids and
 * CORS, are counted in the metrics under their route, and change when the projected height moves.
 */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "api-app-")) });
const { db } = await ensureCurrentSet(ch, "explorer");
const { app, runtime } = buildApi(ch, "explorer", {
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
const server = app.listen(0, "127.0.0.1");
await new Promise((r) => server.once("listening", r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1.0`;
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await runtime.dispose();
  await ch.close();
});

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
const key = { authorization: "Bearer k-app" };
/** An answer's headers but those that change from one answer to the next. */
const steady = (headers: Headers | IncomingHttpHeaders) =>
  Object.fromEntries(
    (headers instanceof Headers ? [...headers] : Object.entries(headers))
      .map(([k, v]) => [k.toLowerCase(), String(v)])
      .filter(
        ([k]) => !["x-request-id", "x-ratelimit-remaining", "date", "retry-after"].includes(k!),
      ),
  );
const requestsCounted = (route: string) =>
  Effect.runSync(Metric.snapshot)
    .filter((s) => s.id === "api_requests_total" && s.attributes?.route === route)
    .reduce((n, s) => n + Number((s.state as { count: number }).count), 0);

describe("kept answers", () => {
  it("are the same bytes and headers as the first answer, and rate limits still apply", async () => {
    await project(7, 70);
    const counted = requestsCounted("/api/1.0/stat");
    const answers = [];
    const keptServed = []; // answers the cache served, per request
    for (let i = 0; i < 4; i++) {
      const hits = app.answerCache.hits;
      answers.push(await fetch(`${base}/stat`));
      keptServed.push(app.answerCache.hits - hits);
    }
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ totalBlocks: 7, totalTransactions: 70 });
    expect(new Set(bodies).size).toBe(1);
    for (const r of answers) {
      expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(new Set(answers.map((r) => r.headers.get("x-request-id"))).size).toBe(4);
    // the first answer was made through the routes; the kept ones have every header it had
    for (const r of answers.slice(1))
      expect(steady(r.headers)).toEqual(steady(answers[0]!.headers));
    expect(answers.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual([
      "3",
      "2",
      "1",
      "0",
    ]);
    expect(requestsCounted("/api/1.0/stat") - counted).toBe(4);
    // The repeated requests were answered from the cache, not computed again.
    expect(keptServed.slice(1)).toEqual([1, 1, 1]);
    // a HEAD, or a GET with a body, is the routed path's: the same answer
    expect((await fetch(`${base}/stat`, { method: "HEAD", headers: key })).status).toBe(200);
    const withBody = await new Promise<string>((resolve, reject) =>
      httpGet(`${base}/stat`, { headers: { ...key, "content-length": "0" } }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => {
          text += c;
        });
        res.on("end", () => resolve(text));
      }).on("error", reject),
    );
    expect(withBody).toBe(bodies[0]);

    const limited = await fetch(`${base}/stat`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ error: expect.stringMatching(/rate limit of 4/) });
    // refused the same way as a request for an answer not kept
    const limitedElsewhere = await fetch(`${base}/blocks?limit=3`);
    expect(limitedElsewhere.status).toBe(429);
    expect(steady(limited.headers)).toEqual(steady(limitedElsewhere.headers));

    const hitsBeforeKey = app.answerCache.hits;
    const withKey = await fetch(`${base}/stat`, { headers: { ...key, "x-request-id": "mine" } });
    expect(app.answerCache.hits).toBeGreaterThan(hitsBeforeKey);
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get("x-request-id")).toBe("mine");
    expect(await withKey.text()).toBe(bodies[0]);
    // a wrong key spends the address's allowance, which is gone: refused as anonymous requests are
    const badKey = await fetch(`${base}/stat`, { headers: { authorization: "Bearer nope" } });
    expect(badKey.status).toBe(429);
    const badKeyElsewhere = await fetch(`${base}/blocks?limit=3`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(steady(badKey.headers)).toEqual(steady(badKeyElsewhere.headers));
    expect(await badKey.json()).toEqual(await badKeyElsewhere.json());
  });

  it("follow the projected height", async () => {
    await project(9, 95);
    const r = await fetch(`${base}/stat`, { headers: key });
    expect(await r.json()).toMatchObject({ totalBlocks: 9, totalTransactions: 95 });
  });

  it("go out gzip-compressed, when large enough, to clients that accept it", async () => {
    // a block whose record is ~12 KB of JSON, as a stored one is (its EVM hashes mostly)
    const record = JSON.stringify({
      height: 3,
      hash: "AB".repeat(32),
      txs: Array.from({ length: 100 }, (_, i) => `0x${i.toString(16).padStart(64, "0")}`),
    });
    await ch.insert({
      table: `${db}.block_records`,
      values: [{ key: "000000000003", proposer_cons: "cosmosvalcons1x", record }],
      format: "JSONEachRow",
    });
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${base}${path}`, { headers: { ...key, ...headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const plain = await get("/blocks/3");
    expect(steady((await get("/blocks/3")).headers)).toEqual(steady(plain.headers)); // kept
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(plain.body.toString())).toMatchObject({ height: 3, proposer: {} });
    // compressed for the first client that accepts it, then kept beside the JSON (its weight
    // added once): both answers are the same bytes
    const weights = [app.answerCache.weight];
    const gzipped: IncomingHttpHeaders[] = [];
    for (let i = 0; i < 2; i++) {
      const gz = await get("/blocks/3", { "accept-encoding": "gzip, deflate, br" });
      gzipped.push(gz.headers);
      weights.push(app.answerCache.weight);
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gz.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
      expect(gz.body.length).toBeLessThan(plain.body.length / 2);
      expect(gunzipSync(gz.body)).toEqual(plain.body);
    }
    expect(weights[1]! - weights[0]!).toBeGreaterThan(0);
    expect(weights[2]).toBe(weights[1]);
    expect(steady(gzipped[1]!)).toEqual(steady(gzipped[0]!));
    // refused explicitly, whatever `*` says; or not named at all
    for (const refused of ["gzip;q=0, *", "br", "identity"])
      expect((await get("/blocks/3", { "accept-encoding": refused })).body).toEqual(plain.body);
    expect((await get("/blocks/3", { "accept-encoding": "*" })).headers["content-encoding"]).toBe(
      "gzip",
    );
    // a small answer is not worth it
    const small = await get("/stat", { "accept-encoding": "gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ totalBlocks: 9 });
  });

  it("of a block show its proposer's description as it is now", async () => {
    await ch.insert({
      table: `${db}.block_records`,
      values: [{ key: "000000000004", proposer_cons: "AB12", record: '{"height":4}' }],
      format: "JSONEachRow",
    });
    const validator = (height: number, moniker: string) =>
      ch.insert({
        table: `${db}.validators`,
        values: [
          {
            operator_address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
            cons_address: "AB12",
            account: "cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du",
            height,
            jailed: 0,
            status: "BOND_STATUS_BONDED",
            tokens: "1",
            record: JSON.stringify({ description: { moniker } }),
          },
        ],
        format: "JSONEachRow",
      });
    const proposer = async () => {
      const r = await fetch(`${base}/blocks/4`, { headers: key });
      return ((await r.json()) as { proposer: unknown }).proposer;
    };
    await validator(9, "first");
    await project(10, 96);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "first" },
    });
    const hits = app.answerCache.hits;
    await proposer();
    expect(app.answerCache.hits).toBe(hits + 1); // kept while nothing changes
    // the validator edits its description at the next height: its row is written (with the rest
    // of that batch) before the projected height moves, and the answer follows it at once, then
    // stays so (kept under the new descriptions, not under the map read before them)
    await validator(11, "renamed");
    await Effect.runPromise(apiDb.refresh);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "renamed" },
    });
    await project(11, 97);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "renamed" },
    });
  });

  it("count a validator's signatures up to the projected height, none for one never in a commit", async () => {
    await ch.insert({
      table: `${db}.validators`,
      values: [
        {
          operator_address: "cosmosvaloper1qgpqyqszqgpqyqszqgpqyqszqgpqyqszxrnw2e",
          cons_address: "CD34",
          account: "cosmos1qgpqyqszqgpqyqszqgpqyqszqgpqyqszrh8mx2",
          height: 11,
          jailed: 0,
          status: "BOND_STATUS_UNBONDED",
          tokens: "0",
          record: JSON.stringify({ description: { moniker: "never" } }),
        },
      ],
      format: "JSONEachRow",
    });
    // AB12 signed 5, missed 6; 12 is a batch being written (projected up to 11)
    await ch.insert({
      table: `${db}.validator_signatures`,
      values: [5, 6, 12].map((height) => ({
        cons_address: "AB12",
        height,
        signed: +(height !== 6),
      })),
      format: "JSONEachRow",
    });
    const r = await fetch(`${base}/validators?sort=operator_address`, { headers: key });
    const counts = ((await r.json()) as { docs: Record<string, unknown>[] }).docs.map((v) => [
      (v.validator as { mxAddress: string }).mxAddress,
      v.signedBlocks,
      v.unsignedBlocks,
    ]);
    expect(counts).toEqual([
      ["cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du", 1, 1],
      ["cosmos1qgpqyqszqgpqyqszqgpqyqszqgpqyqszrh8mx2", 0, 0],
    ]);
  });

  it("share a failure among the requests that waited on it, computed once, and do not keep it", async () => {
    // The store as the API sees it, every lookup by hash counted, and the first held back until
    // all five requests below have arrived.
    let lookups = 0;
    let arrived = 0;
    const counted = new Proxy(ch, {
      get: (target, name) => {
        const value = Reflect.get(target, name, target);
        if (name !== "query") return typeof value === "function" ? value.bind(target) : value;
        return async (p: Parameters<typeof ch.query>[0]) => {
          if (p.query.includes("tx_hash")) {
            lookups++;
            for (let waited = 0; arrived < 5 && waited < 10_000; waited += 10)
              await new Promise((r) => setTimeout(r, 10));
          }
          return target.query(p);
        };
      },
    });
    const other = buildApi(counted, "explorer", {
      prefix: "cosmos",
      nativeCoins: new Map(),
      rateLimitPerMinute: 1000,
      apiKeys: new Map(),
    });
    const s = other.app.listen(0, "127.0.0.1");
    s.on("request", () => {
      arrived++;
    });
    await new Promise((r) => s.once("listening", r));
    try {
      const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/1.0/txs/${"AB".repeat(32)}`;
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(url)));
      expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
      expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
      expect(lookups).toBe(1);
      expect((await fetch(url)).status).toBe(404); // asked again later: looked up again
      expect(lookups).toBe(2);
    } finally {
      await new Promise((r) => s.close(r));
      await other.runtime.dispose();
    }
  });

  it("leave validation, OPTIONS and unknown paths as they are", async () => {
    expect((await fetch(`${base}/txs?limit=5`, { headers: key })).status).toBe(200);
    const bad = await fetch(`${base}/txs?limit=abc`, { headers: key });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringContaining("limit") });
    const options = await fetch(`${base}/stat`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const unknown = await fetch(`${base}/nothing-here`, { headers: key });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "no such endpoint: GET /api/1.0/nothing-here" });
  });
});
