import { describe, expect, it } from "vitest";
import { type MemorySample, trendOf } from "./memory-trend.ts";

const run = (f: (t: number) => number): MemorySample[] =>
  Array.from({ length: 60 }, (_, t) => ({ t, rss: f(t), heapUsed: f(t) / 2 }));

describe("memory trend", () => {
  it("a level run with sawtooth GC noise is steady", () => {
    const tr = trendOf(
      run((t) => 400 + ((t * 7) % 10) * 3),
      (s) => s.rss,
    );
    expect(tr.steady).toBe(true);
    expect(Math.abs(tr.slopePerMinute)).toBeLessThan(5);
  });

  it("a leak of 1 MiB per second is not, and its slope says how fast", () => {
    const tr = trendOf(
      run((t) => 400 + t),
      (s) => s.rss,
    );
    expect(tr.steady).toBe(false);
    expect(tr.growth).toBeCloseTo(40, 0);
    expect(tr.slopePerMinute).toBeCloseTo(60, 5);
  });

  it("growth within 5 % of the level counts as noise; too few samples is an error", () => {
    expect(
      trendOf(
        run((t) => (t < 20 ? 400 : 415)),
        (s) => s.rss,
      ).steady,
    ).toBe(true);
    expect(
      trendOf(
        run((t) => (t < 20 ? 400 : 430)),
        (s) => s.rss,
      ).steady,
    ).toBe(false);
    expect(() => trendOf(run((t) => t).slice(0, 5), (s) => s.rss)).toThrow(/at least 6/);
  });
});
