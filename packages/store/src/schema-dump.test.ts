import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { freshSchema, schemaCommand, schemaFile } from "./schema-dump.ts";

describe("sql/schema.sql", () => {
  it("is what the migrations leave in a fresh store", async () => {
    const fresh = await freshSchema();
    expect(fresh).toContain("CREATE TABLE {db}.txs\n");
    const written = readFileSync(schemaFile, "utf8");
    expect(written, `sql/schema.sql is out of date: run \`${schemaCommand}\``).toBe(fresh);
  }, 60_000);
});
