import { describe, expect, it } from "vitest";
import { latencyFigures, percentile } from "./latencies.ts";

describe("latency figures of a load run", () => {
  it("takes percentiles by nearest rank", () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(s, 50)).toBe(50);
    expect(percentile(s, 99)).toBe(99);
    expect(percentile([], 99)).toBe(0);
  });

  it("gives the p99 the clients waited, and wrk's corrected one beside it", () => {
    // 10 clients, 1 s: 995 requests of 10 ms and 5 of 400 ms (a stall)
    const samples = [...Array(995).fill(10), ...Array(5).fill(400)];
    const f = latencyFigures(samples, 1000, 10);
    expect(f.p50).toBe(10);
    expect(f.p99).toBe(10);
    // each 400 ms sample also counted at 390, 380, … 20 (a client's pace: 1000 / 100 = 10 ms):
    // 5 × 38 more samples above 10, so the 99th percentile is among them
    expect(f.p99Corrected).toBeGreaterThan(300);
  });

  it("adds nothing below twice a client's pace", () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 5 + (i % 10));
    const f = latencyFigures(samples, 1000, 10);
    expect(f.p99Corrected).toBe(f.p99);
  });
});
