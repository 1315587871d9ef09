import { describe, expect, it } from "vitest";
import { type Day, decimal, series } from "./series.ts";

const H = 3_600_000n;
/** A day with `blocks` blocks, the first at `first` and the last at `last` hours of the day. */
const day = (date: string, blocks: bigint, first: bigint, last: bigint, txs = 0n): Day => {
  const start = BigInt(Date.parse(`${date}T00:00:00Z`));
  return {
    day: date,
    parts: { blocks, txs, first_ms: start + first * H, last_ms: start + last * H },
  };
};
const values = (points: { value: string }[]) => points.map((p) => p.value);

describe("series", () => {
  const days = [
    day("2026-11-23", 3n, 1n, 3n, 5n),
    day("2026-11-25", 2n, 2n, 4n, 1n),
    day("2026-11-30", 1n, 0n, 0n, 2n),
  ];

  it("gives every day between the first and the last, zero where a count had nothing", () => {
    const points = series(days, { kind: "count", part: "txs" }, { resolution: "DAY" });
    expect(points.map((p) => p.date)).toEqual([
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
      "2026-11-27",
      "2026-11-28",
      "2026-11-29",
      "2026-11-30",
    ]);
    expect(values(points)).toEqual(["5", "0", "1", "0", "0", "0", "0", "2"]);
    expect(points[0]).toEqual({
      date: "2026-11-23",
      date_to: "2026-11-23",
      value: "5",
      is_approximate: false,
    });
  });

  it("groups by week from Monday, by month and by year", () => {
    const week = series(days, { kind: "count", part: "txs" }, { resolution: "WEEK" });
    expect(week.map((p) => [p.date, p.date_to, p.value])).toEqual([
      ["2026-11-23", "2026-11-29", "6"],
      ["2026-11-30", "2026-12-06", "2"],
    ]);
    const month = series(days, { kind: "count", part: "txs" }, { resolution: "MONTH" });
    expect(month.map((p) => [p.date, p.date_to, p.value])).toEqual([
      ["2026-11-01", "2026-11-30", "8"],
    ]);
    const year = series(days, { kind: "count", part: "txs" }, { resolution: "YEAR" });
    expect(year.map((p) => [p.date, p.date_to])).toEqual([["2026-01-01", "2026-12-31"]]);
  });

  it("bounds by from and to, growth counting the days before from", () => {
    const q = { from: "2026-11-24", to: "2026-11-26", resolution: "DAY" } as const;
    expect(values(series(days, { kind: "count", part: "txs" }, q))).toEqual(["0", "1", "0"]);
    expect(values(series(days, { kind: "growth", part: "txs" }, q))).toEqual(["5", "6", "6"]);
    // a range outside the chart's days is cut to them
    const wide = { from: "2020-01-01", to: "2030-01-01", resolution: "DAY" } as const;
    expect(series(days, { kind: "count", part: "txs" }, wide)).toHaveLength(8);
    expect(series([], { kind: "count", part: "txs" }, { resolution: "DAY" })).toEqual([]);
  });

  it("leaves out a ratio's periods with nothing to divide by", () => {
    const points = series(
      days,
      { kind: "ratio", num: "txs", den: "blocks" },
      { resolution: "DAY" },
    );
    expect(points.map((p) => [p.date, p.value])).toEqual([
      ["2026-11-23", "1.666667"],
      ["2026-11-25", "0.5"],
      ["2026-11-30", "2"],
    ]);
  });

  it("averages block intervals from the last block before each period", () => {
    const points = series(days, { kind: "interval" }, { resolution: "DAY" });
    // 23rd: 3 blocks from 1h to 3h, 2 intervals: 1 h. 25th: from 3h of the 23rd to 4h of the
    // 25th (49 h) over 2 blocks. 30th: from 4h of the 25th to 0h of the 30th (116 h), 1 block.
    expect(values(points)).toEqual(["3600", "88200", "417600"]);
    const week = series(days, { kind: "interval" }, { from: "2026-11-30", resolution: "WEEK" });
    expect(values(week)).toEqual(["417600"]);
  });

  it("carries a level from its last reading, with no point before the first", () => {
    const read = (date: string, balance: bigint | undefined): Day => ({
      day: date,
      parts: { blocks: 1n, balance: balance ?? 0n, readings: balance === undefined ? 0n : 1n },
    });
    const ds = [
      read("2026-11-23", undefined),
      read("2026-11-24", 7n),
      read("2026-11-26", undefined),
      read("2026-11-27", 0n),
      read("2026-11-30", undefined),
    ];
    const m = { kind: "level", part: "balance", has: "readings" } as const;
    const points = series(ds, m, { resolution: "DAY" });
    expect(points.map((p) => [p.date, p.value])).toEqual([
      ["2026-11-24", "7"],
      ["2026-11-25", "7"],
      ["2026-11-26", "7"],
      ["2026-11-27", "0"],
      ["2026-11-28", "0"],
      ["2026-11-29", "0"],
      ["2026-11-30", "0"],
    ]);
    // a week's point is its last day's; a range after a reading starts from it
    const week = series(ds, m, { resolution: "WEEK" });
    expect(week.map((p) => [p.date, p.value])).toEqual([
      ["2026-11-23", "0"],
      ["2026-11-30", "0"],
    ]);
    expect(
      values(series(ds, m, { from: "2026-11-25", to: "2026-11-26", resolution: "DAY" })),
    ).toEqual(["7", "7"]);
  });

  it("writes decimals rounded half up", () => {
    expect(decimal(1n, 3n)).toBe("0.333333");
    expect(decimal(2n, 3n)).toBe("0.666667");
    expect(decimal(10n, 2n)).toBe("5");
    expect(decimal(0n, 7n)).toBe("0");
    expect(decimal(10n ** 30n, 1n)).toBe(`1${"0".repeat(30)}`);
  });
});
