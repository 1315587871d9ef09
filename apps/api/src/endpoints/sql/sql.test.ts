import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { logSettings, useLogSettings } from "@explorer/service/log";
import { ensureCurrentSet, openClickHouse, queryRows, repointViews } from "@explorer/store";
import { DEFAULT_SQL_LIMITS, hostileQueries } from "@explorer/store/sql-sandbox";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildApi } from "../../main.ts";
import type { SqlPolicy } from "./access.ts";

/** /api/1.0/sql on a real chDB store (empty but for a few blocks): who may, formats, the sandbox. */
const dir = mkdtempSync(join(tmpdir(), "api-sql-"));
const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
const { set } = await ensureCurrentSet(ch, "explorer");
await repointViews(ch, "explorer", set, ["blocks"]);
const SECRET = "secret-9d1e";
await ch.command({ query: "CREATE TABLE default.secret (s String) ENGINE = MergeTree ORDER BY s" });
await ch.command({ query: `INSERT INTO default.secret VALUES ('${SECRET}')` });
const secretFile = join(dir, "secret.txt");
writeFileSync(secretFile, SECRET);

const policy: SqlPolicy = {
  keys: new Set(["k-sql"]),
  anonymous: "auto",
  listensOnLoopback: true,
  perMinute: 10_000,
  maxConcurrent: 2,
  limits: {
    ...DEFAULT_SQL_LIMITS,
    maxExecutionS: 1,
    maxResultRows: 10_000,
    maxBytesToRead: 1e15,
    maxRowsToRead: 1e13,
    maxMemoryBytes: 64 * 1024 * 1024,
    maxResultBytes: 8 * 1024 * 1024,
  },
};
const { app, runtime } = buildApi(ch, "explorer", {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 100_000,
  apiKeys: new Map([
    ["k-sql", 100_000],
    ["k-plain", 100_000],
  ]),
  sql: policy,
});
const server = app.listen(0, "127.0.0.1");
await new Promise((r) => server.once("listening", r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1.0`;
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await runtime.dispose();
  await ch.close();
});

interface Answer {
  readonly meta?: unknown;
  readonly data?: unknown;
  readonly rows?: number;
  readonly statistics?: unknown;
  readonly error?: string;
}

const get = (sql: string, init: RequestInit = {}, extra = "") =>
  fetch(`${base}/sql?query=${encodeURIComponent(sql)}${extra}`, init);
const post = (body: string, headers: Record<string, string> = {}, extra = "") =>
  fetch(`${base}/sql${extra}`, { method: "POST", body, headers });

/** What the store holds: every table's rows (nothing a query did may change it). */
const snapshot = () =>
  queryRows<{ t: string; rows: string }>(
    ch,
    "SELECT concat(database, '.', name) AS t, toString(total_rows) AS rows FROM system.tables WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema') ORDER BY t",
  );

describe("/api/1.0/sql", () => {
  it("answers a loopback client without a key: the engine's JSON, with column types and rows read", async () => {
    const r = await get("SELECT count() AS n, currentDatabase() AS here FROM explorer.blocks");
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    const json = (await r.json()) as Answer & { meta: unknown; statistics: object };
    expect(json.meta).toEqual([
      { name: "n", type: "UInt64" },
      { name: "here", type: "String" },
    ]);
    expect(json.data).toEqual([{ n: "0", here: "default" }]);
    expect(json.rows).toBe(1);
    // streamed from chDB: the time taken (chDB's stream gives no rows read)
    expect(json.statistics).toEqual({ elapsed: expect.any(Number) });
  });

  it("takes a key with the sql scope, refuses one without it (403) and an unknown one (401)", async () => {
    const sql = "SELECT 1 AS one";
    expect((await get(sql, { headers: { authorization: "Bearer k-sql" } })).status).toBe(200);
    const plain = await get(sql, { headers: { authorization: "Bearer k-plain" } });
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as Answer).error).toMatch(/no sql scope/);
    expect((await get(sql, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });

  it("takes the query as a text body, or JSON with ClickHouse-style parameters", async () => {
    const text = await post("SELECT 41 + 1 AS n", { "content-type": "text/plain" });
    expect(((await text.json()) as Answer).data).toEqual([{ n: 42 }]);
    const evil = "'); DROP DATABASE explorer; --";
    const bound = await post(
      JSON.stringify({
        query: "SELECT {s:String} AS s, {n:UInt32} AS n",
        params: { s: evil, n: 7 },
      }),
      { "content-type": "application/json" },
    );
    expect(((await bound.json()) as Answer).data).toEqual([{ s: evil, n: 7 }]);
    const bad = await post(JSON.stringify({ sql: "SELECT 1" }), {
      "content-type": "application/json",
    });
    expect([bad.status, ((await bad.json()) as Answer).error]).toEqual([
      400,
      expect.stringMatching(/sql/),
    ]);
  });

  it("answers CSV, TSV and Parquet, by format= or Accept", async () => {
    const sql = "SELECT number AS n, toString(number) AS s FROM numbers(2)";
    const csv = await get(sql, {}, "&format=csv");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe('"n","s"\n0,"0"\n1,"1"\n');
    const tsv = await get(sql, { headers: { accept: "text/tab-separated-values" } });
    expect(await tsv.text()).toBe("n\ts\n0\t0\n1\t1\n");
    const parquet = await post(sql, {}, "?format=parquet");
    expect(
      Buffer.from(await parquet.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("PAR1");
    expect((await get(sql, {}, "&format=xml")).status).toBe(400);
  });

  it("streams CSV, TSV and JSON: one header, every row; a limit passed mid-way is the last line (CSV, TSV) or a cut (JSON); each answer gives its place back", async () => {
    // 5,000 rows at once, then a count that runs into the time limit (1 s here)
    const late =
      "SELECT number FROM numbers(5000) UNION ALL SELECT count() FROM numbers(1000000000000)";
    const r = await get(late, {}, "&format=csv");
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(
      /^"number"\n0\n1\n[\s\S]*\n4999\n# error after the answer began: 408 Timeout exceeded[^\n]*\n$/,
    );
    // JSON is streamed too: cut off (the connection closed) when a limit is passed mid-way
    const json = await get(late);
    expect(json.status).toBe(200);
    await expect(json.text()).rejects.toThrow();
    // more streamed answers than may run at once, one after the other
    for (let i = 0; i < 3; i++)
      expect(await (await get("SELECT number FROM numbers(3)", {}, "&format=tsv")).text()).toBe(
        "number\n0\n1\n2\n",
      );
    // a client gone mid-answer: its query is cancelled and its place given back
    const gone = new AbortController();
    await get(late, { signal: gone.signal }, "&format=csv");
    gone.abort();
    let both: number[] = [];
    for (let i = 0; i < 30; i++) {
      both = (await Promise.all([get("SELECT 1"), get("SELECT 2")])).map((x) => x.status);
      if (both.every((s) => s === 200)) break;
      await new Promise((w) => setTimeout(w, 100));
    }
    expect(both).toEqual([200, 200]);
  });

  it("cuts a streamed answer past max_result_bytes sent, which the engine counts once a block for a constant column", async () => {
    // 40 rows of one constant MB: 40 MB, far past the 8 MiB limit, in one block the engine lets by
    const big = "SELECT repeat('x', 1000000) AS s FROM numbers(40)";
    const csv = await get(big, {}, "&format=csv");
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.length).toBeLessThan(9 * 1024 * 1024);
    expect(text).toMatch(
      /(^|\n)# error after the answer began: 429 the answer passed max_result_bytes \(8388608 bytes\)[^\n]*\n$/,
    );
    const json = await get(big);
    expect(json.status).toBe(200);
    await expect(json.text()).rejects.toThrow();
    expect(await get("SELECT 1 AS x", {}, "&format=tsv").then((r) => r.text())).toBe("x\n1\n");
  });

  it("logs a client gone mid-CSV as a debug line, and a JSON answer cut by a limit once: nothing on stderr, the API answers on", async () => {
    const before = logSettings();
    useLogSettings({ logFormat: "json", logLevel: "Debug" });
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write");
    const consoleError = vi.spyOn(console, "error");
    // 5,000 rows at once, then a count that runs into the time limit (1 s here)
    const late =
      "SELECT number FROM numbers(5000) UNION ALL SELECT count() FROM numbers(1000000000000)";
    try {
      const gone = new AbortController();
      const r = await get(late, { signal: gone.signal }, "&format=csv");
      const reader = r.body!.getReader();
      await reader.read(); // the answer has begun
      gone.abort();
      const cut = await get(late);
      await expect(cut.text()).rejects.toThrow();
      const lines = () =>
        out.mock.calls
          .map(([l]) => String(l))
          .join("")
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as { level: string; msg: string; path?: string });
      for (let i = 0; i < 50 && !lines().some((l) => l.msg === "client left mid-answer"); i++)
        await new Promise((w) => setTimeout(w, 100));
      expect(lines().filter((l) => l.level !== "debug" && l.level !== "info")).toEqual([]);
      expect(lines()).toContainEqual(
        expect.objectContaining({
          level: "debug",
          msg: "client left mid-answer",
          path: "/api/1.0/sql",
        }),
      );
      expect(lines().filter((l) => l.msg === "SQL answer cut after it began")).toHaveLength(1);
      expect(err).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
      expect(await (await get("SELECT 1 AS x", {}, "&format=csv")).text()).toBe('"x"\n1\n');
    } finally {
      out.mockRestore();
      err.mockRestore();
      consoleError.mockRestore();
      useLogSettings(before);
    }
  }, 20_000);

  it("counts SQL_QUERIES_PER_MINUTE per key, and per IP without one: 429 with retry-after past it", async () => {
    const keys = { "k-a": 100_000, "k-b": 100_000 };
    const small = buildApi(ch, "explorer", {
      prefix: "cosmos",
      nativeCoins: new Map(),
      rateLimitPerMinute: 100_000,
      apiKeys: new Map(Object.entries(keys)),
      sql: { ...policy, keys: new Set(Object.keys(keys)), perMinute: 2 },
    });
    const s = small.app.listen(0, "127.0.0.1");
    await new Promise((r) => s.once("listening", r));
    try {
      const at = `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/1.0/sql?query=SELECT+1`;
      const as = (key?: string) =>
        fetch(at, key ? { headers: { authorization: `Bearer ${key}` } } : {});
      const a = [await as("k-a"), await as("k-a"), await as("k-a")];
      expect(a.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(Number(a[2]!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await a[2]!.json()) as Answer).error).toMatch(/2 queries per minute/);
      // another key, and a client without one, have quotas of their own
      expect((await as("k-b")).status).toBe(200);
      expect((await as()).status).toBe(200);
    } finally {
      await new Promise((r) => s.close(r));
      await small.runtime.dispose();
    }
  });

  it("says why: 400 with the engine's message, 403 naming the refused, 408 and 429 for limits", async () => {
    const syntax = await get("SELEC 1");
    expect(syntax.status).toBe(400);
    expect(((await syntax.json()) as Answer).error).toMatch(/^Syntax error/);
    const users = await get("SELECT * FROM system.users");
    expect([users.status, ((await users.json()) as Answer).error]).toEqual([
      403,
      expect.stringContaining("system.users"),
    ]);
    expect((await get("SELECT count() FROM numbers(1000000000000)")).status).toBe(408);
    expect((await get("SELECT number FROM numbers(1000000)")).status).toBe(429);
    // Two queries may run at once: a third is told to come back.
    const slow = () => get("SELECT count() FROM numbers(1000000000000)").then((r) => r.status);
    expect((await Promise.all([slow(), slow(), slow()])).sort()).toEqual([408, 408, 429]);
  });

  it("refuses or cuts every hostile query with its status; nothing is written, the API still answers", async () => {
    const before = await snapshot();
    const got: string[] = [];
    const want: string[] = [];
    for (const h of hostileQueries(secretFile)) {
      const r = await post(h.sql);
      const text = await r.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/Stack trace|\n {4}at /);
      got.push(
        `${r.status} ${h.sql}${r.status === 403 && h.names && !text.includes(h.names) ? ` (said ${text})` : ""}`,
      );
      want.push(`${h.status} ${h.sql}`);
    }
    expect(got).toEqual(want);
    expect(await snapshot()).toEqual(before);
    expect(existsSync(`${secretFile}.out`) || existsSync(`${secretFile}.w`)).toBe(false);
    expect((await fetch(`${base}/blocks`)).status).toBe(200);
    expect(((await (await get("SELECT 1 AS x")).json()) as Answer).data).toEqual([{ x: 1 }]);
  }, 120_000);
});
