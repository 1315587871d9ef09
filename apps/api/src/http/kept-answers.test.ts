import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { keptAnswersApi, key, requestsCounted, steady } from "./kept-answers.fixtures.ts";

/**
 * The request path around the answers: kept answers (served before routing) come with the same
 * bytes and headers as fresh ones, still pass rate limits and API keys, carry request ids and
 * CORS, are counted in the metrics under their route, and change when the projected height moves.
 */
const { ch, db, app, base, project } = await keptAnswersApi();

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
    // the first answers were made through the routes; the kept ones have every header they had
    for (const r of answers.slice(1))
      expect(steady(r.headers)).toEqual(steady(answers[0]!.headers));
    expect(answers.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual([
      "3",
      "2",
      "1",
      "0",
    ]);
    expect(requestsCounted("/api/1.0/stat") - counted).toBe(4);
    // Made the first two times, kept from the second (answers.ts), then answered from the cache.
    expect(keptServed).toEqual([0, 0, 1, 1]);
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
