import { describe, expect, it } from "vitest";
import { daysBetween, nextDay, periodOf } from "./periods.ts";

describe("periods", () => {
  it("lists every day of a range, across a month and a leap day", () => {
    expect(daysBetween("2024-02-28", "2024-03-01")).toEqual([
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
    ]);
    expect(daysBetween("2024-03-02", "2024-03-01")).toEqual([]);
    expect(nextDay("2025-12-31")).toBe("2026-01-01");
  });

  it("starts weeks on Monday and ends them on Sunday", () => {
    // 2026-11-28 is a Saturday; 2026-11-23 a Monday
    expect(periodOf("2026-11-28", "WEEK")).toEqual({ date: "2026-11-23", dateTo: "2026-11-29" });
    expect(periodOf("2026-11-23", "WEEK")).toEqual({ date: "2026-11-23", dateTo: "2026-11-29" });
    expect(periodOf("2026-11-29", "WEEK")).toEqual({ date: "2026-11-23", dateTo: "2026-11-29" });
    expect(periodOf("2027-01-01", "WEEK")).toEqual({ date: "2026-12-28", dateTo: "2027-01-03" });
  });

  it("gives months and years their first and last day", () => {
    expect(periodOf("2024-02-10", "MONTH")).toEqual({ date: "2024-02-01", dateTo: "2024-02-29" });
    expect(periodOf("2026-12-31", "MONTH")).toEqual({ date: "2026-12-01", dateTo: "2026-12-31" });
    expect(periodOf("2026-06-15", "YEAR")).toEqual({ date: "2026-01-01", dateTo: "2026-12-31" });
    expect(periodOf("2026-06-15", "DAY")).toEqual({ date: "2026-06-15", dateTo: "2026-06-15" });
  });
});
