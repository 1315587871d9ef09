/** Days (UTC, YYYY-MM-DD) and the periods a chart groups them in. */

export const RESOLUTIONS = ["DAY", "WEEK", "MONTH", "YEAR"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

const DAY_MS = 86_400_000;
const ms = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const dayOf = (t: number): string => new Date(t).toISOString().slice(0, 10);

/** The day after `day`. */
export const nextDay = (day: string): string => dayOf(ms(day) + DAY_MS);

/** Every day from `from` to `to`, both included (none when `from` is after `to`). */
export const daysBetween = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let t = ms(from), end = ms(to); t <= end; t += DAY_MS) out.push(dayOf(t));
  return out;
};

/** The first and last day of the period of `resolution` that holds `day` (weeks from Monday). */
export const periodOf = (day: string, resolution: Resolution): { date: string; dateTo: string } => {
  const d = new Date(ms(day));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (resolution) {
    case "DAY":
      return { date: day, dateTo: day };
    case "WEEK": {
      const start = ms(day) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
      return { date: dayOf(start), dateTo: dayOf(start + 6 * DAY_MS) };
    }
    case "MONTH":
      return { date: dayOf(Date.UTC(y, m, 1)), dateTo: dayOf(Date.UTC(y, m + 1, 0)) };
    case "YEAR":
      return { date: dayOf(Date.UTC(y, 0, 1)), dateTo: dayOf(Date.UTC(y, 11, 31)) };
  }
};
