import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { currentSet, migrate, openClickHouse, repointViews, switchSet } from "@explorer/store";
import { afterAll, describe, expect, it } from "vitest";
import { openCurrentSet } from "./table-set.ts";
import { TABLES } from "./writer.ts";

/**
 * A projector opening the current set repoints the SQL views to it; a re-index that switches to
 * its new set meanwhile (and repoints them itself) must not be undone: the views end on the set
 * that is current.
 */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "table-set-")) });
afterAll(() => ch.close());

/** The set the view `<base>.blocks` reads. */
const viewSet = async (base: string) => {
  const rs = await ch.query({
    query: `SELECT create_table_query AS q FROM system.tables WHERE database = '${base}' AND name = 'blocks'`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ q: string }>();
  return Number(new RegExp(`FROM ${base}_(\\d+)\\.blocks`).exec(row?.q ?? "")?.[1]);
};

describe("openCurrentSet", () => {
  it("leaves the views on the set a re-index switched to while it repointed them", async () => {
    const base = "race";
    await migrate(ch, "race_1");
    await switchSet(ch, base, 1);
    await migrate(ch, "race_2"); // the re-index's new set, filled
    let switched = false;
    // The first view this opening writes: the re-index switches and repoints first.
    const racing = new Proxy(ch, {
      get(target, prop, receiver) {
        if (prop !== "command") return Reflect.get(target, prop, receiver);
        return async (p: { query: string }) => {
          if (!switched && p.query.startsWith(`CREATE OR REPLACE VIEW ${base}.`)) {
            switched = true;
            await switchSet(target, base, 2);
            await repointViews(target, base, 2, TABLES);
          }
          return target.command(p);
        };
      },
    }) as ClickHouseClient;
    const opened = await openCurrentSet(racing, base);
    expect(switched).toBe(true);
    expect(await currentSet(ch, base)).toBe(2);
    expect(opened).toEqual({ set: 2, db: "race_2" });
    expect(await viewSet(base)).toBe(2);
  }, 60_000);
});
