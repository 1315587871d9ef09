import { describe, expect, it } from "vitest";
import { progressLine } from "./progress.ts";

describe("progressLine", () => {
  it("shows height, rates and the time left", () => {
    expect(
      progressLine({ height: 500, head: 1000, blocks: 100, txs: 250, elapsedMs: 10_000 }),
    ).toBe("height 500/1000 (50.0%) · 10.0 blocks/s · 25.0 txs/s · ETA 50 s");
  });
  it("says so at the head, and uses minutes and hours for long waits", () => {
    expect(progressLine({ height: 10, head: 10, blocks: 1, txs: 0, elapsedMs: 1000 })).toMatch(
      /at the head$/,
    );
    expect(progressLine({ height: 0, head: 36_000, blocks: 1, txs: 0, elapsedMs: 1000 })).toMatch(
      /ETA 10\.0 h$/,
    );
    expect(progressLine({ height: 0, head: 600, blocks: 1, txs: 0, elapsedMs: 1000 })).toMatch(
      /ETA 10 min$/,
    );
  });
});
