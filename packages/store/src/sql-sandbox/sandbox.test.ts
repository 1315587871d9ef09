import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClickHouse, openRawRunner, queryRows } from "../client.ts";
import { engineFailure } from "./errors.ts";
import { hostileQueries } from "./hostile-queries.ts";
import { DEFAULT_SQL_LIMITS, type SqlLimits } from "./limits.ts";
import { bodyText, checkQuery, runAccepted, type SqlFormat } from "./sandbox.ts";

/** The sandbox on a real chDB store: a table set, its view, the meta table and a stranger's table. */
const dir = mkdtempSync(join(tmpdir(), "sql-sandbox-"));
const secretFile = join(dir, "secret.txt");
const SECRET = "the-secret-4711";
const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
const runner = await openRawRunner(ch, 1);
afterAll(async () => {
  await runner.close();
  await ch.close();
});

const limits: SqlLimits = {
  ...DEFAULT_SQL_LIMITS,
  maxExecutionS: 2,
  maxResultRows: 100_000,
  maxResultBytes: 10_000_000,
  maxRowsToRead: 10_000_000_000_000,
  maxBytesToRead: 1_000_000_000_000_000,
  maxMemoryBytes: 64 * 1024 * 1024,
};

/** The status and text of a query through the sandbox: refused, failed, or run. */
const answer = async (sql: string, params = {}, format: SqlFormat = "json") => {
  const v = await checkQuery(runner, "explorer", sql, params, limits);
  if (v.kind === "refused") return { status: 403, text: `${v.what}: ${v.reason}` };
  if (v.kind === "failed") return { status: v.status, text: v.message };
  try {
    const r = await runAccepted(runner, v, limits, format);
    return { status: 200, text: await bodyText(r), r };
  } catch (e) {
    const f = engineFailure(e);
    return { status: f.status, text: f.message };
  }
};

/** What the store holds: every table's rows, so that a test can see nothing was written. */
const snapshot = async () =>
  queryRows<{ t: string; rows: string }>(
    ch,
    "SELECT concat(database, '.', name) AS t, toString(total_rows) AS rows FROM system.tables WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema') ORDER BY t",
  );

beforeAll(async () => {
  writeFileSync(secretFile, `${SECRET}\n`);
  for (const query of [
    "CREATE DATABASE explorer_1",
    "CREATE TABLE explorer_1.blocks (height UInt64, hash String) ENGINE = ReplacingMergeTree ORDER BY height",
    "INSERT INTO explorer_1.blocks VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "CREATE DATABASE explorer",
    "CREATE VIEW explorer.blocks AS SELECT * FROM explorer_1.blocks FINAL",
    "CREATE DATABASE explorer_meta",
    "CREATE TABLE explorer_meta.current_set (name String, set UInt32) ENGINE = MergeTree ORDER BY name",
    "CREATE TABLE default.secret (s String) ENGINE = MergeTree ORDER BY s",
    `INSERT INTO default.secret VALUES ('${SECRET}')`,
  ])
    await ch.command({ query });
});

describe("the SQL sandbox on chDB", () => {
  it("runs reads of the explorer views, WITH, subqueries, allowed table functions and system tables", async () => {
    const ok = [
      "SELECT height, hash FROM explorer.blocks ORDER BY height",
      "WITH b AS (SELECT height FROM explorer.blocks) SELECT count() AS n FROM b",
      "SELECT count() AS n FROM explorer_1.blocks FINAL WHERE height IN (SELECT number FROM numbers(3))",
      "SELECT name FROM system.columns WHERE database = 'explorer' AND table = 'blocks' ORDER BY name",
      "SELECT dummy FROM system.one UNION ALL SELECT toUInt8(generate_series) FROM generate_series(1, 2)",
      "select /* a comment; */ max(height) -- another\n from EXPLORER_ALIAS_IS_NOT_NEEDED_HERE_BUT.blocks",
    ];
    const [a, b, c, d, e, f] = await Promise.all(ok.map((q) => answer(q)));
    expect(a?.status, a?.text).toBe(200);
    const json = JSON.parse(a!.text);
    expect(json.meta).toEqual([
      { name: "height", type: "UInt64" },
      { name: "hash", type: "String" },
    ]);
    expect(json.data).toEqual([
      { height: "1", hash: "a" },
      { height: "2", hash: "b" },
      { height: "3", hash: "c" },
    ]);
    // streamed from chDB: the time taken, measured by the runner (chDB's stream gives no rows read)
    expect(json.statistics).toEqual({ elapsed: expect.any(Number) });
    expect(JSON.parse(b!.text).data).toEqual([{ n: "3" }]);
    expect(JSON.parse(c!.text).data).toEqual([{ n: "2" }]);
    expect(JSON.parse(d!.text).data).toEqual([{ name: "hash" }, { name: "height" }]);
    expect(e?.status, e?.text).toBe(200);
    expect(f?.status).toBe(403);
    expect(f?.text).toContain("EXPLORER_ALIAS_IS_NOT_NEEDED_HERE_BUT.blocks");
  });

  it("runs a query on one thread, at low priority, read-only", async () => {
    const r = await answer(
      "SELECT getSetting('max_threads') AS t, getSetting('priority') AS p, getSetting('os_threads_nice_value_query') AS n, getSetting('readonly') AS ro",
      {},
      "tsv",
    );
    expect(r.text).toBe("t\tp\tn\tro\n1\t10\t19\t1\n");
  });

  it("binds ClickHouse-style parameters as values, never as SQL", async () => {
    const evil = "x'); DROP TABLE explorer_1.blocks; --";
    const r = await answer("SELECT {s:String} AS s, {h:UInt64} + 1 AS h", { s: evil, h: 41 });
    expect(JSON.parse(r.text).data).toEqual([{ s: evil, h: 42 }]);
    expect((await answer("SELECT {h:UInt64}", { h: "no" })).status).toBe(400);
    expect((await answer("SELECT {h:UInt64}", {})).status).toBe(400);
  });

  it("answers CSV, TSV and Parquet", async () => {
    const sql = "SELECT height, hash FROM explorer.blocks ORDER BY height";
    expect((await answer(sql, {}, "csv")).text).toBe('"height","hash"\n1,"a"\n2,"b"\n3,"c"\n');
    expect((await answer(sql, {}, "tsv")).text).toBe("height\thash\n1\ta\n2\tb\n3\tc\n");
    expect((await answer(sql, {}, "parquet")).text.slice(0, 4)).toBe("PAR1");
  });

  it("refuses a Parquet answer (it comes whole from chDB) past the answer's bytes, not building it", async () => {
    // 20,000 rows of 1,000 bytes: twice max_result_bytes (10 MB here), within the rows and memory
    const r = await answer(
      "SELECT repeat(toString(number % 10), 1000) AS s FROM numbers(20000)",
      {},
      "parquet",
    );
    expect([r.status, r.text]).toEqual([429, expect.stringMatching(/Limit for result exceeded/)]);
    expect((await answer("SELECT 'next' AS x", {}, "tsv")).text).toBe("x\nnext\n");
  });

  it("gives the engine's message for a bad query, as a 400 without a stack trace", async () => {
    const r = await answer("SELEC 1");
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/^Syntax error/);
    expect(r.text).not.toMatch(/\n|Stack trace|0x[0-9a-f]{8}/);
    const unknown = await answer("SELECT nope FROM explorer.blocks");
    expect([unknown.status, unknown.text]).toEqual([400, expect.stringContaining("nope")]);
  });

  it("refuses or cuts every hostile query with its status, and nothing is written", async () => {
    const before = await snapshot();
    const list = hostileQueries(secretFile);
    expect(list.length).toBeGreaterThanOrEqual(40);
    const got: string[] = [];
    const want: string[] = [];
    for (const h of list) {
      const r = await answer(h.sql);
      expect(r.text).not.toContain(SECRET);
      got.push(
        `${r.status} ${h.sql}${r.status === 403 && h.names && !r.text.includes(h.names) ? ` (said: ${r.text})` : ""}`,
      );
      want.push(`${h.status} ${h.sql}`);
    }
    expect(got).toEqual(want);
    expect(await snapshot()).toEqual(before);
    expect(existsSync(`${secretFile}.out`) || existsSync(`${secretFile}.w`)).toBe(false);
    // docs/sql.md lists every one.
    const doc = readFileSync(new URL("../../../../docs/sql.md", import.meta.url), "utf8");
    const rows = doc.split("\n");
    for (const h of hostileQueries("/tmp/…/secret.txt")) {
      const t = h.sql.replaceAll("\n", "\\n").replaceAll("|", "\\|");
      const code = t.includes("`") ? `\`\` ${t} \`\`` : `\`${t}\``;
      const row = rows.find((r) => r.includes(`| ${code}`));
      expect(row?.split("|")[1]?.trim(), h.sql).toBe(String(h.status));
    }
    // The engine still answers.
    expect(
      JSON.parse((await answer("SELECT count() AS n FROM explorer.blocks")).text).data,
    ).toEqual([{ n: "3" }]);
  }, 120_000);
});
