import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { poolSize } from "./chdb-pool.ts";
import { insertJsonEachRow, openClickHouse, queryRows } from "./client.ts";

/** The embedded store's sessions: queries side by side, one engine and one data set behind them. */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "chdb-pool-")) });
afterAll(() => ch.close());

describe("chDB sessions", () => {
  it("run queries at the same time (one session runs them one after the other)", async () => {
    const sleep = () => queryRows(ch, "SELECT sleepEachRow(0.3) FROM numbers(1)");
    const t0 = performance.now();
    await Promise.all([sleep(), sleep(), sleep()]);
    expect(performance.now() - t0).toBeLessThan(750);
  });

  it("see what any of them wrote", async () => {
    await ch.command({ query: "CREATE DATABASE IF NOT EXISTS p" });
    await ch.command({ query: "CREATE TABLE p.t (n UInt32) ENGINE = MergeTree ORDER BY n" });
    // Busy sessions, so that the insert and the reads go to different ones.
    const busy = Promise.all([1, 2].map(() => queryRows(ch, "SELECT sleepEachRow(0.2)")));
    await insertJsonEachRow(ch, "p.t", new TextEncoder().encode('{"n":1}\n{"n":2}\n'));
    const counts = await Promise.all(
      [1, 2, 3, 4].map(() => queryRows<{ c: string }>(ch, "SELECT count() AS c FROM p.t")),
    );
    await busy;
    expect(counts.map(([r]) => Number(r?.c))).toEqual([2, 2, 2, 2]);
  });

  it("are 4, or one per core where there are more", () => {
    expect([1, 2, 4, 8, 64].map(poolSize)).toEqual([4, 4, 4, 8, 16]);
  });
});
