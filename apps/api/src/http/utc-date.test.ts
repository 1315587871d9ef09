import { describe, expect, it } from "vitest";
import { endOf, utcDate } from "./utc-date.ts";

describe("utcDate", () => {
  it("reads a UTC day, and an instant with or without its offset (UTC without)", () => {
    expect(utcDate("2026-11-28", "d")).toEqual({ ms: Date.UTC(2026, 10, 28), day: true });
    const at = Date.UTC(2026, 10, 28, 15, 4, 5);
    expect(utcDate("2026-11-28T15:04:05Z", "d")).toEqual({ ms: at, day: false });
    expect(utcDate("2026-11-28T15:04:05", "d").ms).toBe(at);
    expect(utcDate("2026-11-28T17:04:05+02:00", "d").ms).toBe(at);
    expect(utcDate("2026-11-28T15:04:05.250Z", "d").ms).toBe(at + 250);
  });

  it("a day ends at its last millisecond; an instant at itself", () => {
    expect(endOf(utcDate("2026-11-28", "d"))).toBe(Date.UTC(2026, 10, 29) - 1);
    expect(endOf(utcDate("2026-11-28T00:00:00Z", "d"))).toBe(Date.UTC(2026, 10, 28));
  });

  it("refuses what is not a date, naming the parameter", () => {
    for (const v of [
      "2026-02-30",
      "2026-13-01",
      "2026-1-1",
      "1700000000",
      "yesterday",
      "2026-11-28T25:00Z",
    ])
      expect(() => utcDate(v, "from_date"), v).toThrow(/from_date must be a UTC date/);
  });
});
