import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChdbPool, openSessions, poolSize } from "./chdb-pool.ts";
import { insertRowBinary, openClickHouse, queryRows, readTableColumns } from "./client.ts";
import { encodeRowBinary } from "./row-binary.ts";

/** The embedded store's sessions: queries side by side, one engine and one data set behind them. */
const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "chdb-pool-")) });
afterAll(() => ch.close());

describe("chDB sessions", () => {
  it("run queries at the same time (one session runs them one after the other)", async () => {
    // Three 2 s sleeps; while they run, another session sees all three in the engine's list.
    const sleep = () => queryRows(ch, "SELECT sleepEachRow(2) FROM numbers(1)");
    const sleeping = Promise.all([sleep(), sleep(), sleep()]);
    let most = 0;
    for (let i = 0; i < 30 && most < 3; i++) {
      const [row] = await queryRows<{ n: string }>(
        ch,
        "SELECT count() AS n FROM system.processes WHERE query LIKE 'SELECT sleepEachRow(2)%'",
      );
      most = Math.max(most, Number(row?.n ?? 0));
      await new Promise((r) => setTimeout(r, 50));
    }
    await sleeping;
    expect(most).toBe(3);
  }, 30_000);

  it("see what any of them wrote", async () => {
    await ch.command({ query: "CREATE DATABASE IF NOT EXISTS p" });
    await ch.command({ query: "CREATE TABLE p.t (n UInt32) ENGINE = MergeTree ORDER BY n" });
    // Busy sessions, so that the insert and the reads go to different ones.
    const busy = Promise.all([1, 2].map(() => queryRows(ch, "SELECT sleepEachRow(0.2)")));
    const columns = (await readTableColumns(ch, "p")).t!;
    await insertRowBinary(ch, "p.t", columns, encodeRowBinary(columns, [{ n: 1 }, { n: 2 }]));
    const counts = await Promise.all(
      [1, 2, 3, 4].map(() => queryRows<{ c: string }>(ch, "SELECT count() AS c FROM p.t")),
    );
    await busy;
    expect(counts.map(([r]) => Number(r?.c))).toEqual([2, 2, 2, 2]);
  });

  it("each format results in the query's own thread (no threads started per query)", async () => {
    // Four at once, so that each goes to a different session.
    const rows = await Promise.all(
      [1, 2, 3, 4].map(() =>
        queryRows<{ p: boolean }>(
          ch,
          "SELECT getSetting('output_format_parallel_formatting') AS p, sleepEachRow(0.2) FROM numbers(1)",
        ),
      ),
    );
    expect(rows.map(([r]) => r?.p)).toEqual([false, false, false, false]);
  });

  it("are 4, or one per core where there are more", () => {
    expect([1, 2, 4, 8, 64].map(poolSize)).toEqual([4, 4, 4, 8, 16]);
  });
});

describe("closing a chDB pool", () => {
  /** A stand-in session: only `close` is called by the pool itself. */
  const session = (closed: string[], name: string) =>
    ({ close: async () => void closed.push(name) }) as unknown as ConstructorParameters<
      typeof ChdbPool
    >[0][number];

  it("waits for the queries running, then closes every session; later queries are refused", async () => {
    const closed: string[] = [];
    const pool = new ChdbPool([session(closed, "a"), session(closed, "b")]);
    let finish: (v: string) => void = () => {};
    const running = pool.run(() => new Promise<string>((r) => (finish = r)));
    const closing = pool.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toEqual([]); // the query is still running
    finish("done");
    await closing;
    expect(await running).toBe("done");
    expect(closed).toEqual(["a", "b"]);
    await expect(pool.run(async () => 1)).rejects.toThrow(/closing/);
  });

  it("closes anyway once the wait is over", async () => {
    const closed: string[] = [];
    const pool = new ChdbPool([session(closed, "a")]);
    void pool.run(() => new Promise(() => {})); // never ends
    await pool.close(100);
    expect(closed).toEqual(["a"]);
  });
});

describe("opening chDB sessions", () => {
  /** Stand-in sessions that record what was SET on them and whether they were closed; SET fails on session `failAt`. */
  const opener = (log: string[], failAt = -1, openFailsAt = -1) => {
    let n = 0;
    return () => {
      const i = n++;
      if (i === openFailsAt) throw new Error(`session ${i} cannot open`);
      return {
        chdb: {
          queryAsync: async (sql: string) => {
            if (i === failAt) throw new Error(`session ${i} refused ${sql}`);
            log.push(`${i}: ${sql}`);
          },
        },
        close: async () => void log.push(`${i}: closed`),
      } as unknown as ConstructorParameters<typeof ChdbPool>[0][number];
    };
  };

  it("sets the settings on every session", async () => {
    const log: string[] = [];
    const sessions = await openSessions(2, opener(log), { a: 1, b: "x" });
    expect(sessions).toHaveLength(2);
    expect(log).toEqual(["0: SET a = 1", "0: SET b = x", "1: SET a = 1", "1: SET b = x"]);
  });

  it("closes the sessions already opened when one fails, then fails", async () => {
    const log: string[] = [];
    await expect(openSessions(4, opener(log, 2), { a: 1 })).rejects.toThrow(/session 2 refused/);
    expect(log).toEqual(["0: SET a = 1", "1: SET a = 1", "0: closed", "1: closed", "2: closed"]);
  });

  it("closes the sessions already opened when opening another fails, then fails", async () => {
    const log: string[] = [];
    await expect(openSessions(4, opener(log, -1, 2), { a: 1 })).rejects.toThrow(/cannot open/);
    expect(log).toEqual(["0: SET a = 1", "1: SET a = 1", "0: closed", "1: closed"]);
  });
});
