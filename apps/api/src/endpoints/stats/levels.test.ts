import { describe, expect, it } from "vitest";
import { DEC_ONE, decUnits, levelsOf } from "./levels.ts";
import { series } from "./series.ts";

describe("levels", () => {
  it("read a Cosmos decimal as 10⁻¹⁸ units, whatever its digits", () => {
    expect(decUnits("0.130000102984900615")).toBe(130000102984900615n);
    expect(decUnits("228629711667550726.2")).toBe(228629711667550726n * DEC_ONE + 2n * 10n ** 17n);
    expect(decUnits("7")).toBe(7n * DEC_ONE);
  });

  it("take each day's state at its last height, the native denom's coins only", () => {
    const days = [
      { day: "2026-11-27", parts: { max_height: 10n } },
      { day: "2026-11-29", parts: { max_height: 20n } },
    ];
    const row = (h: number, bonded: string, pool: string) => ({
      h: String(h),
      supply: JSON.stringify([
        { denom: "other", amount: "5" },
        { denom: "atest", amount: "400" },
      ]),
      bonded_tokens: bonded,
      inflation: "0.13",
      community_pool: JSON.stringify([{ denom: "atest", amount: pool }]),
    });
    const levels = levelsOf(days, [row(20, "300", "1.5"), row(10, "100", "0.25")], "atest");
    expect(levels.map((d) => [d.day, d.parts.supply, d.parts.bonded])).toEqual([
      ["2026-11-27", 400n, 100n],
      ["2026-11-29", 400n, 300n],
    ]);
    // a quiet day carries the last level; a ratio of two levels; a decimal to 6 places
    const ratio = series(
      levels,
      { kind: "level", part: "bonded", has: "readings", den: "supply" },
      { resolution: "DAY" },
    );
    expect(ratio.map((p) => p.value)).toEqual(["0.25", "0.25", "0.75"]);
    const pool = series(
      levels,
      { kind: "level", part: "pool", has: "readings", den: "dec_one" },
      { resolution: "WEEK" },
    );
    expect(pool.map((p) => [p.date, p.value])).toEqual([["2026-11-23", "1.5"]]);
  });
});
