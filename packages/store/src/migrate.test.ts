import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openClickHouse } from "./client.ts";
import { loadMigrations, MigrationError, migrate } from "./migrate.ts";
import { currentSet, switchSet } from "./table-sets.ts";

const ch = await openClickHouse({
  kind: "chdb",
  path: mkdtempSync(join(tmpdir(), "chdb-migrate-")),
});
afterAll(() => ch.close());

describe("migrations on chDB", () => {
  it("apply once, record themselves, and are a no-op the second time", async () => {
    const first = await migrate(ch, "mig_a");
    expect(first).toEqual(loadMigrations().map((m) => m.name));
    expect(await migrate(ch, "mig_a")).toEqual([]);
    const rs = await ch.query({
      query: "SELECT name FROM system.tables WHERE database = 'mig_a' ORDER BY name",
      format: "JSONEachRow",
    });
    const tables = (await rs.json<{ name: string }>()).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "blocks",
        "txs",
        "addresses",
        "validators",
        "event_logs",
        "token_transfers",
        "token_holders",
        "token_inventory",
      ]),
    );
  });

  it("refuse a migration file that changed after it was applied", async () => {
    const ms = loadMigrations();
    await migrate(ch, "mig_b", ms);
    const changed = ms.map((m, i) => (i === 0 ? { ...m, checksum: "different" } : m));
    await expect(migrate(ch, "mig_b", changed)).rejects.toBeInstanceOf(MigrationError);
  });

  it("refuse a database name that is not an identifier", async () => {
    await expect(migrate(ch, "x; DROP TABLE y")).rejects.toBeInstanceOf(MigrationError);
  });

  it("switch the current table set", async () => {
    expect(await currentSet(ch, "sets")).toBeUndefined();
    await switchSet(ch, "sets", 1);
    await new Promise((r) => setTimeout(r, 5));
    await switchSet(ch, "sets", 2);
    expect(await currentSet(ch, "sets")).toBe(2);
  });
});
