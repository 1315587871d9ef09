import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { buildApi } from "@explorer/api";
import { ensureCurrentSet } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listenLocal } from "../lib/net.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * The record cache (apps/api/src/records/record-cache.ts) changes nothing a client sees: every
 * block and every transaction of the scenario, by height and by either hash, is the same answer
 * (bytes, status and headers, gzip-compressed or not) from an API with the cache as from one
 * reading the store, and an unknown hash or a height above the chain is the same 404. Started again
 * over its kept file, it answers them the same with the store's tables that hold them renamed
 * away, which the test checks so that it cannot pass with the cache unused.
 */
let store: ScenarioStore;
let closeCached: (() => Promise<void>) | undefined;
/** The scenario's last block. */
let top = 0;
const recordsDir = mkdtempSync(join(tmpdir(), "api-record-cache-"));
const cachedApi = () =>
  buildApi(store.ch, "cached", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e9,
    apiKeys: new Map(),
    recordCacheDir: recordsDir,
  });
let db = "";
const bases = { store: "", cached: "" };

/** GET with exactly these headers (fetch would ask for gzip): status, headers and body. */
const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((ok, fail) => {
    request(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (p: Buffer) => parts.push(p));
      res.on("end", () =>
        ok({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers)
              .filter(([k]) => !["x-request-id", "x-ratelimit-remaining", "date"].includes(k))
              .map(([k, v]) => [k, String(v)]),
          ),
          body: Buffer.concat(parts),
        }),
      );
      res.on("error", fail);
    })
      .on("error", fail)
      .end();
  });

const rows = async <T>(query: string) =>
  (await store.ch.query({ query, format: "JSONEachRow" })).json<T>();

/** The same answer from both APIs (the body decompressed where it came gzipped). */
const same = async (path: string, headers: Record<string, string> = {}) => {
  const [a, b] = await Promise.all([
    get(`${bases.store}${path}`, headers),
    get(`${bases.cached}${path}`, headers),
  ]);
  const text = (r: typeof a) =>
    (r.headers["content-encoding"] === "gzip" ? gunzipSync(r.body) : r.body).toString();
  expect({ ...b, body: text(b) }, path).toEqual({ ...a, body: text(a) });
  return a;
};

beforeAll(async () => {
  store = await scenarioStore("api-record-cache", inject("logDir"));
  db = (await ensureCurrentSet(store.ch, "cached")).db;
  await store.project(db);
  bases.store = await store.api("cached");
  const api = cachedApi();
  top = Number((await rows<{ h: string }>(`SELECT max(height) AS h FROM ${db}.blocks`))[0]!.h);
  await api.records!.filledTo(db, top);
  const { server, port } = await listenLocal(api.app);
  bases.cached = `http://127.0.0.1:${port}/api/1.0`;
  closeCached = async () => {
    await new Promise((r) => server.close(r));
    await api.runtime.dispose();
  };
}, 300_000);

afterAll(async () => {
  await closeCached?.();
  await store?.close();
});

describe("an API with a record cache answers as one reading the store", () => {
  it("every transaction, by its Cosmos hash and by each EVM hash, with and without gzip", async () => {
    const txs = await rows<{ txhash: string; evm: string[] }>(
      `SELECT txhash, evm_hashes AS evm FROM ${db}.txs FINAL ORDER BY height, idx`,
    );
    expect(txs.length).toBeGreaterThan(50);
    expect(txs.some((t) => t.evm.length > 0)).toBe(true); // else the EVM keys go untested
    let asked = 0;
    for (const t of txs)
      for (const hash of [t.txhash, t.txhash.toLowerCase(), ...t.evm]) {
        const plain = await same(`/txs/${hash}`);
        expect(plain.status, hash).toBe(200);
        const zipped = await same(`/txs/${hash}`, { "accept-encoding": "gzip" });
        // from 1 KiB on (GZIP_FROM_BYTES)
        expect(zipped.headers["content-encoding"]).toBe(
          plain.body.length >= 1024 ? "gzip" : undefined,
        );
        asked += 2;
      }
    expect(asked).toBeGreaterThan(2 * txs.length);
  });

  it("every block, with and without gzip", async () => {
    for (let h = 1; h <= top; h++) {
      expect((await same(`/blocks/${h}`)).status, `block ${h}`).toBe(200);
      await same(`/blocks/${h}`, { "accept-encoding": "gzip" });
    }
  });

  it("the same 404s and 400s", async () => {
    for (const path of [
      `/txs/${"AB".repeat(32)}`,
      `/txs/0x${"ab".repeat(32)}`,
      "/blocks/99999999",
      "/txs/0x12",
      "/blocks/0",
    ])
      expect([400, 404], path).toContain((await same(path)).status);
    await same("/blocks/01"); // the route's, as the cache takes only the plain form
  });

  it("after a restart, from the file it kept: full at once, nothing read again", async () => {
    const txs = await rows<{ txhash: string }>(`SELECT txhash FROM ${db}.txs FINAL`);
    // the answers as the store gives them, before its tables go away
    const paths = [
      ...txs.map((t) => `/txs/${t.txhash}`),
      ...Array.from({ length: top }, (_, i) => `/blocks/${i + 1}`),
    ];
    const expected = new Map<string, { status: number; body: string }>();
    for (const path of paths) {
      const r = await get(`${bases.store}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.body.length).toBeGreaterThan(0);
      expect(r.body.toString()).toMatch(/^\{/);
      expected.set(path, { status: r.status, body: r.body.toString() });
    }
    await closeCached?.();
    const again = cachedApi();
    // the tables a point lookup reads in the store, and those the cache is filled from
    const away = ["txs", "tx_hash", "blocks", "block_records"];
    let renamed = 0;
    try {
      let full = false;
      await Promise.race([
        again.records!.filledTo(db, top).then(() => {
          full = true;
        }),
        new Promise((r) => setTimeout(r, 10_000)),
      ]);
      expect(full).toBe(true);
      const { server, port } = await listenLocal(again.app);
      bases.cached = `http://127.0.0.1:${port}/api/1.0`;
      closeCached = async () => {
        await new Promise((r) => server.close(r));
        await again.runtime.dispose();
      };
      for (const t of away) {
        await store.ch.command({ query: `RENAME TABLE ${db}.${t} TO ${db}.${t}_away` });
        renamed++;
      }
      for (const path of paths) {
        const r = await get(`${bases.cached}${path}`);
        expect({ status: r.status, body: r.body.toString() }, path).toEqual(expected.get(path));
      }
    } finally {
      for (const t of away.slice(0, renamed))
        await store.ch.command({ query: `RENAME TABLE ${db}.${t}_away TO ${db}.${t}` });
    }
  });
});
