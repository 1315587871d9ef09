import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi } from "@explorer/api";
import { ensureCurrentSet, openClickHouse, repointViews } from "@explorer/store";
import { DEFAULT_SQL_LIMITS } from "@explorer/store/sql-sandbox";
import { describe, expect, it } from "vitest";
import { explorer } from "./explorer-process.fixtures.ts";
import { renderTable } from "./sql-table.ts";

/** A migrated chDB store with its views, three blocks in it (one data directory per process). */
const dir = mkdtempSync(join(tmpdir(), "explorer-sql-"));
const store = async () => {
  const ch = await openClickHouse({ kind: "chdb", path: dir });
  const { set, db, created } = await ensureCurrentSet(ch, "explorer");
  await repointViews(ch, "explorer", set, ["blocks"]);
  if (created)
    await ch.command({
      query: `INSERT INTO ${db}.blocks (height, block_hash) VALUES (1, 'a'), (2, 'b'), (3, 'c')`,
    });
  return ch;
};

describe("explorer sql", { timeout: 120_000 }, () => {
  it("prints a table: the header, the rows (numbers to the right), the count", () => {
    const text = renderTable({
      meta: [
        { name: "height", type: "UInt64" },
        { name: "hash", type: "String" },
      ],
      data: [
        { height: "9", hash: "a" },
        { height: "10", hash: "b\nc" },
      ],
      rows: 2,
      statistics: { elapsed: 0.0012, rows_read: 2 },
    });
    expect(text).toBe(
      "height  hash\n------  ----\n     9  a\n    10  b\\nc\n2 rows, 2 read in 0.001 s\n",
    );
  });

  it("runs straight on a store no process holds, in the sandbox", async () => {
    await (await store()).close();
    const at = ["--store", `chdb:${dir}`];
    const table = await explorer("sql", "SELECT count() AS n FROM explorer.blocks", ...at);
    expect([table.code, table.stdout.split("\n").slice(0, 3)]).toEqual([0, ["n", "-", "3"]]);
    const csv = await explorer(
      "sql",
      "SELECT block_hash FROM explorer.blocks ORDER BY height",
      ...at,
      "--output",
      "csv",
    );
    expect(csv.stdout).toBe('"block_hash"\n"a"\n"b"\n"c"\n');
    const refused = await explorer("sql", "SELECT * FROM file('/etc/passwd')", ...at);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/^explorer: SqlFailed: 403: refused: table function file/),
    ]);
  });

  it("asks a running service, with its key", async () => {
    const ch = await store();
    const { app, runtime } = buildApi(ch, "explorer", {
      prefix: "cosmos",
      nativeCoins: new Map([["test", "atest"]]),
      rateLimitPerMinute: 1000,
      apiKeys: new Map([["k-sql", 1000]]),
      sql: {
        keys: new Set(["k-sql"]),
        anonymous: "off",
        listensOnLoopback: true,
        perMinute: 100,
        maxConcurrent: 1,
        limits: DEFAULT_SQL_LIMITS,
      },
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const api = ["--api", `http://127.0.0.1:${(server.address() as AddressInfo).port}`];
    try {
      const sql = "SELECT max(height) AS top FROM explorer.blocks";
      const ok = await explorer("sql", sql, ...api, "--api-key", "k-sql", "--output", "csv");
      expect([ok.code, ok.stdout]).toEqual([0, '"top"\n3\n']);
      const anonymous = await explorer("sql", sql, ...api);
      expect([anonymous.code, anonymous.stderr]).toEqual([
        1,
        expect.stringContaining("401: SQL needs an API key"),
      ]);
    } finally {
      await new Promise((r) => server.close(r));
      await runtime.dispose();
      await ch.close();
    }
  });
});
