import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCurrentSet, migrate, openClickHouse, setDb, switchSet } from "@explorer/store";
import { Effect } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { makeDb } from "./db.ts";

const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "api-db-")) });
const { db } = await ensureCurrentSet(ch, "explorer");
afterAll(() => ch.close());

const verifiedRow = (match: "full" | "partial") => ({
  address: "0x00000000000000000000000000000000000000aa",
  contract_name: "A",
  match,
  verified_at: "2026-01-01 00:00:00.000",
  height: 5,
});

describe("store state", () => {
  it("the verification count, which keys cached answers, grows when a full match replaces a partial one and does not fall back when the rows merge", async () => {
    const store = makeDb(ch, "explorer", 0);
    const verified = async () => (await Effect.runPromise(store.refresh)).verified;
    const seen = [await verified()];
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("partial")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("full")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    await ch.command({ query: `OPTIMIZE TABLE ${db}.verified_contracts FINAL` });
    seen.push(await verified());
    // A replay inserting the same rows again changes nothing.
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("partial"), verifiedRow("full")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    expect(seen[0]).toBe(0);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(seen[2]).toBeGreaterThan(seen[1]!);
    expect(seen.slice(3)).toEqual([seen[2], seen[2]]);
  });
});

// Each test migrates new table sets (20 migrations): seconds on a busy machine.
describe("a re-index's switch", { timeout: 30_000 }, () => {
  const projectedIn = (b: string, set: number, height: number) =>
    ch.insert({
      table: `${setDb(b, set)}.progress`,
      values: [{ name: "projector", height, txs_total: height * 2 }],
      format: "JSONEachRow",
    });

  it("keeps reading the old set until the new one reaches the height already served, so the height never steps back", async () => {
    const base = "reswitch";
    const projected = (set: number, height: number) => projectedIn(base, set, height);
    await ensureCurrentSet(ch, base);
    await projected(1, 10);
    const store = makeDb(ch, base, 0);
    const seen = async () => {
      const s = await Effect.runPromise(store.refresh);
      return `${s.db}@${s.height}`;
    };
    expect(await seen()).toBe("reswitch_1@10");
    // The re-index filled set 2 up to 10 while the live projector went on to 11 in set 1.
    await migrate(ch, setDb(base, 2));
    await projected(2, 10);
    await projected(1, 11);
    expect(await seen()).toBe("reswitch_1@11");
    await switchSet(ch, base, 2);
    expect(await seen()).toBe("reswitch_1@11");
    // The live projector moved to set 2 and projected 11 there.
    await projected(2, 11);
    expect(await seen()).toBe("reswitch_2@11");
    await projected(2, 12);
    expect(await seen()).toBe("reswitch_2@12");
  });

  it("adopts a new set that stays behind once the grace period is over, not before", async () => {
    const b = "reswitch_grace";
    await ensureCurrentSet(ch, b);
    await projectedIn(b, 1, 20);
    const store = makeDb(ch, b, 0, 1_500);
    const seen = async () => {
      const s = await Effect.runPromise(store.refresh);
      return `${s.db}@${s.height}`;
    };
    expect(await seen()).toBe("reswitch_grace_1@20");
    await migrate(ch, setDb(b, 2));
    await projectedIn(b, 2, 15);
    await switchSet(ch, b, 2);
    expect(await seen()).toBe("reswitch_grace_1@20");
    await new Promise((r) => setTimeout(r, 100));
    expect(await seen()).toBe("reswitch_grace_1@20"); // still within the grace
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await seen()).toBe("reswitch_grace_2@15");
  });

  /**
   * A store whose answers the test controls: table sets `x_1` and `x_2` at `heights`, the current
   * one `current`; the old set's progress read waits on `gate`, or fails with `failure`.
   */
  const controlled = (ttlMs = 60_000) => {
    const c = {
      heights: { x_1: 11, x_2: 10 } as Record<string, number>,
      current: 1,
      gate: undefined as Promise<void> | undefined,
      failure: undefined as Error | undefined,
    };
    const client = {
      command: async () => ({}),
      query: async ({ query }: { query: string }) => ({
        json: async () => {
          if (query.includes("current_set")) return [{ set: c.current, n: 1 }];
          if (query.includes(".blocks")) return [{ height: 1 }];
          const db = /FROM (x_\d)\.progress/.exec(query)?.[1] ?? "";
          if (db === "x_1" && c.gate) await c.gate;
          if (db === "x_1" && c.failure) throw c.failure;
          return [{ h: c.heights[db], t: 0, v: 0 }];
        },
      }),
    } as unknown as Parameters<typeof makeDb>[0];
    return { c, store: makeDb(client, "x", ttlMs) };
  };
  const at = (s: { db: string; height: number } | undefined) => `${s?.db}@${s?.height}`;

  it("an old set that cannot be read for a while fails the read (retried); one that was dropped is given up on", async () => {
    const { c, store } = controlled();
    expect(at(await Effect.runPromise(store.refresh))).toBe("x_1@11");
    c.current = 2;
    c.failure = new Error("Code: 159. Timeout exceeded (TIMEOUT_EXCEEDED)");
    await expect(Effect.runPromise(store.refresh)).rejects.toThrow(/store's state/);
    c.failure = new Error("Code: 81. Database x_1 does not exist. (UNKNOWN_DATABASE)");
    expect(at(await Effect.runPromise(store.refresh))).toBe("x_2@10");
  });

  it("past half its TTL, peek starts the next read and answers the last state meanwhile, up to 4 TTLs while that read goes on", async () => {
    const { c, store } = controlled(200);
    expect(at(await Effect.runPromise(store.refresh))).toBe("x_1@11");
    let open = () => {};
    c.gate = new Promise((r) => {
      open = r;
    });
    c.heights.x_1 = 12; // a new block projected
    await new Promise((r) => setTimeout(r, 120));
    expect(at(store.peek())).toBe("x_1@11"); // a new read started, waiting on the store
    open();
    await new Promise((r) => setTimeout(r, 20));
    expect(at(store.peek())).toBe("x_1@12");
    c.gate = new Promise(() => {}); // the store stops answering
    await new Promise((r) => setTimeout(r, 120));
    expect(at(store.peek())).toBe("x_1@12"); // (and the next read starts)
    await new Promise((r) => setTimeout(r, 100));
    // past its TTL while that read goes on (a busy main thread reads slowly): the last state
    expect(at(store.peek())).toBe("x_1@12");
    await new Promise((r) => setTimeout(r, 700));
    expect(store.peek()).toBeUndefined(); // expired: the hot path waits on the store
  });

  it("past its TTL with no read going on (the last one failed), peek answers nothing", async () => {
    const { c, store } = controlled(100);
    expect(at(await Effect.runPromise(store.refresh))).toBe("x_1@11");
    c.failure = new Error("Code: 159. Timeout exceeded (TIMEOUT_EXCEEDED)");
    await new Promise((r) => setTimeout(r, 60));
    expect(at(store.peek())).toBe("x_1@11"); // the next read starts, and fails
    await new Promise((r) => setTimeout(r, 60));
    expect(store.peek()).toBeUndefined();
  });

  it("an older read of the state that ends after a newer one does not bring the older state back", async () => {
    const { c: ctl, store } = controlled();
    const heights = ctl.heights;
    expect((await Effect.runPromise(store.refresh)).height).toBe(11);
    ctl.current = 2; // a re-index switched to x_2, still at 10
    let open = () => {};
    ctl.gate = new Promise((r) => {
      open = r;
    });
    const older = Effect.runPromise(store.refresh); // waits on x_1, which it keeps serving
    await new Promise((r) => setTimeout(r, 20));
    heights.x_2 = 12; // the projector caught up in x_2
    expect(at(await Effect.runPromise(store.refresh))).toBe("x_2@12");
    open();
    expect(at(await older)).toBe("x_2@12");
    expect(at(store.peek())).toBe("x_2@12");
  });
});
