import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqlDir } from "./migrate.ts";
import { freshSchema, schemaCommand, schemaFile } from "./schema-dump.ts";

describe("sql/schema.sql", () => {
  it("is what the migrations leave in a fresh store", async () => {
    const fresh = await freshSchema();
    expect(fresh).toContain("CREATE TABLE {db}.txs\n");
    const written = readFileSync(schemaFile, "utf8");
    expect(written, `sql/schema.sql is out of date: run \`${schemaCommand}\``).toBe(fresh);
  }, 60_000);

  it("has each of its tables and views described in sql/README.md", () => {
    const names = [...readFileSync(schemaFile, "utf8").matchAll(/^CREATE .*?\{db\}\.(\w+)/gm)];
    const readme = readFileSync(join(sqlDir, "README.md"), "utf8");
    expect(names.length).toBeGreaterThan(20);
    const undescribed = names
      .map((m) => m[1]!)
      .filter((n) => !readme.includes(`**\`${n}\`**`) && !readme.includes(`| \`${n}\` `));
    expect(undescribed, "tables and views of schema.sql missing from sql/README.md").toEqual([]);
  });
});
