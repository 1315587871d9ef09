import { describe, expect, it } from "vitest";
import { intoDays, withDays } from "./day-merge.ts";
import type { Day } from "./series.ts";

const day = (date: string, blocks: bigint, maxHeight: bigint): Day => ({
  day: date,
  parts: { blocks, max_height: maxHeight, txs: 9n },
});
/** Three days with blocks: heights 1–4, 5–6 and 7–10. */
const days = [day("2026-11-23", 4n, 4n), day("2026-11-25", 2n, 6n), day("2026-11-26", 4n, 10n)];
const parts = (ds: Day[]) => ds.map((d) => [d.day, d.parts]);

describe("intoDays", () => {
  it("adds up each height's count into the day holding it, 0 on a day without any", () => {
    const rows = [
      { h: "1", n: "2" },
      { h: "4", n: "1" },
      { h: "7", n: "-1" },
      { h: "10", n: "3" },
    ];
    expect(parts(intoDays(days, rows, "tokens"))).toEqual([
      ["2026-11-23", { blocks: 4n, tokens: 3n }],
      ["2026-11-25", { blocks: 2n, tokens: 0n }],
      ["2026-11-26", { blocks: 4n, tokens: 2n }],
    ]);
  });

  it("leaves out heights after the last day", () => {
    const out = intoDays(days, [{ h: "11", n: "5" }], "tokens");
    expect(out.map((d) => d.parts.tokens)).toEqual([0n, 0n, 0n]);
  });
});

describe("withDays", () => {
  it("gives the chain's days and the rows' days together, in order", () => {
    const rows = [
      { day: "2026-11-25", n: "2" },
      { day: "2026-11-24", n: "1" },
      { day: "2026-11-27", n: "4" },
    ];
    expect(parts(withDays(days, rows, "verified"))).toEqual([
      ["2026-11-23", { blocks: 4n, verified: 0n }],
      ["2026-11-24", { blocks: 0n, verified: 1n }],
      ["2026-11-25", { blocks: 2n, verified: 2n }],
      ["2026-11-26", { blocks: 4n, verified: 0n }],
      ["2026-11-27", { blocks: 0n, verified: 4n }],
    ]);
  });
});
