import type { Day } from "./series.ts";

/** A count at a height, or on a day, as decimal text (as queries give them). */
export interface AtHeight {
  readonly h: string;
  readonly n: string;
}
export interface OnDay {
  readonly day: string;
  readonly n: string;
}

/**
 * Counts at heights added up into the chain's days (in order, each with its last height
 * `max_height`: a day holds the heights after the day before's last, up to its own): each of
 * `days` with its `blocks` and `part`. Heights after the last day are left out. Pure.
 */
export const intoDays = (days: readonly Day[], rows: readonly AtHeight[], part: string): Day[] => {
  const ends = days.map((d) => d.parts.max_height ?? 0n);
  const sums = days.map(() => 0n);
  for (const r of rows) {
    const h = BigInt(r.h);
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    if (lo < sums.length) sums[lo] = (sums[lo] ?? 0n) + BigInt(r.n);
  }
  return days.map((d, i) => ({
    day: d.day,
    parts: { blocks: d.parts.blocks ?? 0n, [part]: sums[i] ?? 0n },
  }));
};

/**
 * The chain's days and the days of `rows` together, in order: each with its `blocks` (0 on a day
 * without one) and `part` (0 on a day without a row). Pure.
 */
export const withDays = (days: readonly Day[], rows: readonly OnDay[], part: string): Day[] => {
  const by = new Map<string, Record<string, bigint>>();
  for (const d of days) by.set(d.day, { blocks: d.parts.blocks ?? 0n, [part]: 0n });
  for (const r of rows) {
    const parts = by.get(r.day) ?? { blocks: 0n, [part]: 0n };
    parts[part] = (parts[part] ?? 0n) + BigInt(r.n);
    by.set(r.day, parts);
  }
  return [...by]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, parts]) => ({ day, parts }));
};
