import { describe, expect, it } from "vitest";
import { Batcher } from "./batch.ts";

const tick = () => new Promise((r) => setImmediate(r));

describe("Batcher", () => {
  it("a lone lookup goes at once; lookups arriving meanwhile share the next query", async () => {
    const queries: number[][] = [];
    let release: () => void = () => {};
    const b = new Batcher<number, string>(async (keys) => {
      queries.push(keys);
      await new Promise<void>((r) => {
        release = r;
      });
      return new Map(keys.filter((k) => k !== 404).map((k) => [k, `v${k}`]));
    }, 1);
    const first = b.load(1);
    await tick();
    expect(queries).toEqual([[1]]);
    const later = [b.load(2), b.load(3), b.load(2), b.load(404)];
    await tick();
    expect(queries).toHaveLength(1); // one batch in flight at most here
    release();
    expect(await first).toBe("v1");
    for (let i = 0; i < 10 && queries.length < 2; i++) await tick();
    expect(queries[1]).toEqual([2, 3, 404]); // each key once
    release();
    expect(await Promise.all(later)).toEqual(["v2", "v3", "v2", undefined]);
  });

  it("a failed query fails its own lookups only", async () => {
    const b = new Batcher<string, number>(async (keys) => {
      if (keys.includes("bad")) throw new Error("store away");
      return new Map(keys.map((k) => [k, k.length]));
    });
    const bad = expect(b.load("bad")).rejects.toThrow("store away");
    await tick();
    const good = b.load("good");
    await bad;
    expect(await good).toBe(4);
  });

  it("splits a large burst into queries of at most `max` keys", async () => {
    const sizes: number[] = [];
    const b = new Batcher<number, number>(
      async (keys) => {
        sizes.push(keys.length);
        return new Map(keys.map((k) => [k, k * 2]));
      },
      2,
      10,
    );
    const all = await Promise.all(Array.from({ length: 35 }, (_, i) => b.load(i)));
    expect(all).toEqual(Array.from({ length: 35 }, (_, i) => i * 2));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.reduce((a, n) => a + n, 0)).toBe(35);
  });
});
