import { describe, expect, it } from "vitest";
import { BUCKET, TxPositions } from "./tx-positions.ts";

/** A chain from `start`: each block's height, txs_before and tx count (many blocks empty). */
const chain = (start: number, blocks: number, seed: number) => {
  let x = seed;
  const rand = () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
  const out: { height: number; before: number; count: number }[] = [];
  let before = 0;
  for (let h = start; h < start + blocks; h++) {
    const r = rand();
    const count = r < 0.5 ? 0 : r < 0.9 ? Math.floor(rand() * 5) : Math.floor(rand() * 3000);
    out.push({ height: h, before, count });
    before += count;
  }
  return out;
};

/** What the loader's query returns for blocks in (from, to]: per bucket, min(txs_before). */
const bucketRows = (blocks: ReturnType<typeof chain>, from: number, to: number) => {
  const m = new Map<number, number>();
  for (const b of blocks)
    if (b.height > from && b.height <= to) {
      const k = Math.floor(b.height / BUCKET);
      m.set(k, Math.min(m.get(k) ?? Number.POSITIVE_INFINITY, b.before));
    }
  return [...m].sort((a, b) => a[0] - b[0]).map(([b, before]) => ({ b, before }));
};

describe("transaction positions", () => {
  for (const start of [1, 700]) {
    it(`bound every position to the heights of its block, loaded as the chain grows (from height ${start})`, () => {
      const blocks = chain(start, 5000, start);
      const positions = new TxPositions();
      let loaded = 0;
      for (const upTo of [start + 10, start + 300, start + 301, start + 2600, start + 4999]) {
        positions.add(bucketRows(blocks, loaded, upTo));
        loaded = upTo;
        const seen = blocks.filter((b) => b.height <= upTo);
        const total = seen.reduce((n, b) => n + b.count, 0);
        for (let i = 0; i < 300; i++) {
          const high = Math.floor((i / 300) * total);
          const low = Math.max(0, high - 1 - (i % 150));
          const r = positions.heights(low, high);
          expect(r).toBeDefined();
          // Every block holding a position in low..high lies in the range.
          const holding = seen.filter(
            (b) => b.count > 0 && b.before <= high && b.before + b.count > low,
          );
          expect(holding.length).toBeGreaterThan(0);
          for (const b of holding) {
            expect(b.height).toBeGreaterThanOrEqual(r!.from);
            expect(b.height).toBeLessThanOrEqual(r!.to);
          }
          // And the range is no wider than the buckets of those blocks.
          const buckets = new Set(holding.map((b) => Math.floor(b.height / BUCKET)));
          expect(r!.to - r!.from + 1).toBeLessThanOrEqual(
            (Math.max(...buckets) - Math.min(...buckets) + 1) * BUCKET,
          );
        }
      }
    });
  }

  it("knows nothing before any block is loaded", () => {
    expect(new TxPositions().heights(0, 10)).toBeUndefined();
  });
});
