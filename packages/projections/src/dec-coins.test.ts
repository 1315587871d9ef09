import { describe, expect, it } from "vitest";
import { decToUnits, parseDecCoins, unitsToDec } from "./dec-coins.ts";

describe("decimal coins", () => {
  it("read the node's LegacyDec text as exact 10^-18 units, and write it back the same", () => {
    const text = "436003041960285318.848000000000000000";
    expect(decToUnits(text)).toBe(436003041960285318848000000000000000n);
    expect(unitsToDec(decToUnits(text))).toBe(text);
    expect(decToUnits("12.5")).toBe(12_500000000000000000n);
    expect(decToUnits("7")).toBe(7_000000000000000000n);
    expect(unitsToDec(5n)).toBe("0.000000000000000005");
    expect(unitsToDec("0")).toBe("0.000000000000000000");
  });
  it("split an event's coins, IBC denoms included", () => {
    expect(
      parseDecCoins(
        "1.5atest,2ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2",
      ),
    ).toEqual([
      { denom: "atest", units: 1_500000000000000000n },
      {
        denom: "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2",
        units: 2_000000000000000000n,
      },
    ]);
    expect(parseDecCoins("")).toEqual([]);
  });
  it("refuse text that is not a decimal coin, rather than count it wrong", () => {
    for (const bad of ["-1atest", "1.5", "atest", "1.0000000000000000001atest", "1,5atest"])
      expect(() => parseDecCoins(bad), bad).toThrow(RangeError);
  });
});
