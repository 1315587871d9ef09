import { describe, expect, it } from "vitest";
import { blockPage } from "./blocks.ts";

/** Blocks are paged by height ranges (no OFFSET): every page of every size, both orders. */
describe("blockPage", () => {
  it("pages through lo..hi exactly once, in order, hasNext false only on the last page", () => {
    for (const [lo, hi] of [
      [1, 1],
      [1, 37],
      [5, 104],
      [700, 700],
    ] as const)
      for (const limit of [1, 3, 10, 100])
        for (const desc of [false, true]) {
          const seen: number[] = [];
          for (let page = 1; ; page++) {
            const { a, b, hasNext } = blockPage(
              { lo, hi },
              { offset: (page - 1) * limit, limit },
              desc,
            );
            const heights = b < a ? [] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
            expect(heights.length).toBeLessThanOrEqual(limit);
            seen.push(...(desc ? heights.reverse() : heights));
            if (!hasNext) break;
            expect(heights.length).toBe(limit);
          }
          const all = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
          expect(seen, `${lo}..${hi} by ${limit}${desc ? " desc" : ""}`).toEqual(
            desc ? all.reverse() : all,
          );
        }
  });

  it("is empty past the end, and for an empty range (a height not projected yet)", () => {
    const past = blockPage({ lo: 1, hi: 10 }, { offset: 10, limit: 5 }, true);
    expect(past.b < past.a && !past.hasNext).toBe(true);
    const none = blockPage({ lo: 11, hi: 10 }, { offset: 0, limit: 5 }, false);
    expect(none.b < none.a && !none.hasNext).toBe(true);
  });
});
