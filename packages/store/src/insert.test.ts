import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
import { afterAll, describe, expect, it } from "vitest";
import { insertJsonEachRow, openClickHouse } from "./client.ts";

/**
 * Encoded rows go in unchanged: through chDB's raw path (the embedded store) and through the
 * client's generic path (the one a ClickHouse server takes; here over the same engine).
 */
const dir = mkdtempSync(join(tmpdir(), "chdb-insert-"));
const ch = await openClickHouse({ kind: "chdb", path: dir });
const generic = createClient({ connection: createChdbConnection({ path: dir }) as never });
afterAll(async () => {
  await generic.close();
  await ch.close();
});

const record = { txhash: "AB", body: { memo: 'quote " tab \t nl \n ünï', n: [1, 2.5, null] } };
const lines = `${[
  { id: 1, tags: ["a", "b"], record: JSON.stringify(record) },
  { id: 2, tags: [], record: '{"x":"\\"y\\""}' },
]
  .map((r) => `{"id":${r.id},"tags":${JSON.stringify(r.tags)},"record":${r.record}}`)
  .join("\n")}\n`;

describe("insertJsonEachRow", () => {
  it.each([
    ["chDB raw", ch],
    ["generic client", generic],
  ])("%s: JSON objects for String columns are kept as their text, byte for byte", async (_, c) => {
    await c.command({ query: "CREATE DATABASE IF NOT EXISTS ins" });
    await c.command({
      query:
        "CREATE OR REPLACE TABLE ins.t (id UInt32, tags Array(String), record String) ENGINE = MergeTree ORDER BY id",
    });
    await insertJsonEachRow(c, "ins.t", new TextEncoder().encode(lines));
    const rows = await (
      await c.query({
        query: "SELECT id, tags, record FROM ins.t ORDER BY id",
        format: "JSONEachRow",
      })
    ).json<{ id: number; tags: string[]; record: string }>();
    expect(rows).toEqual([
      { id: 1, tags: ["a", "b"], record: JSON.stringify(record) },
      { id: 2, tags: [], record: '{"x":"\\"y\\""}' },
    ]);
    expect(JSON.parse(rows[0]!.record)).toEqual(record);
  });

  it("refuses what is not a table name, and inserts nothing for no rows", async () => {
    await expect(insertJsonEachRow(ch, "ins.t; DROP TABLE x", new Uint8Array(1))).rejects.toThrow(
      /not a table name/,
    );
    await insertJsonEachRow(ch, "ins.t", new Uint8Array(0));
  });
});
