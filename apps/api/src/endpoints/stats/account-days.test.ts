import { describe, expect, it } from "vitest";
import { cutOf } from "./account-days.ts";
import { CHARTS } from "./charts.ts";
import { type Day, series } from "./series.ts";

/** Days whose parts count accounts: all active, and those first active in the week, month, year. */
const day = (d: string, active: bigint, week: bigint, month: bigint, year: bigint): Day => ({
  day: d,
  parts: { active, active_week: week, active_month: month, active_year: year, new_accounts: 1n },
});
const days = [
  day("2026-12-28", 3n, 3n, 3n, 3n), // Monday
  day("2026-12-30", 2n, 1n, 1n, 1n),
  day("2027-01-01", 4n, 1n, 4n, 4n),
  day("2027-01-04", 2n, 2n, 1n, 0n), // Monday
];
const active = CHARTS.get("activeAccounts")!;
const values = (resolution: "DAY" | "WEEK" | "MONTH" | "YEAR", from?: string, to?: string) =>
  series(days, active.measure, { resolution, from, to }).map((p) => [p.date, p.value]);

describe("activeAccounts", () => {
  it("counts each period's distinct accounts: the sum of its days' first ones of the period", () => {
    expect(values("DAY")).toEqual([
      ["2026-12-28", "3"],
      ["2026-12-29", "0"],
      ["2026-12-30", "2"],
      ["2026-12-31", "0"],
      ["2027-01-01", "4"],
      ["2027-01-02", "0"],
      ["2027-01-03", "0"],
      ["2027-01-04", "2"],
    ]);
    expect(values("WEEK")).toEqual([
      ["2026-12-28", "5"],
      ["2027-01-04", "2"],
    ]);
    expect(values("MONTH")).toEqual([
      ["2026-12-01", "4"],
      ["2027-01-01", "5"],
    ]);
    expect(values("YEAR")).toEqual([
      ["2026-01-01", "4"],
      ["2027-01-01", "4"],
    ]);
    // a period cut by `to` holds its days up to it
    expect(values("WEEK", undefined, "2026-12-30")).toEqual([["2026-12-28", "4"]]);
  });

  it("reads a period cut by `from` again (cutOf), at a resolution coarser than a day only", () => {
    const q = { from: "2026-12-30", resolution: "WEEK" } as const;
    const points = series(days, active.measure, q);
    expect(cutOf(active, points, q)).toEqual({ from: "2026-12-30", to: "2027-01-03" });
    expect(cutOf(active, points, { ...q, to: "2026-12-31" })).toEqual({
      from: "2026-12-30",
      to: "2026-12-31",
    });
    expect(cutOf(active, points, { ...q, resolution: "DAY" })).toBeUndefined();
    expect(cutOf(active, points, { ...q, from: "2026-12-28" })).toBeUndefined();
    const newAccounts = CHARTS.get("newAccounts")!;
    expect(cutOf(newAccounts, series(days, newAccounts.measure, q), q)).toBeUndefined();
  });
});
