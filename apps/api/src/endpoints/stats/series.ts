import { daysBetween, periodOf, type Resolution } from "./periods.ts";

/** A day's sums (and first/last block times, ms) as the analytics tables give them. */
export type Parts = Readonly<Record<string, bigint>>;

/** One UTC day with activity, and its parts. */
export interface Day {
  readonly day: string;
  readonly parts: Parts;
}

/**
 * How a chart turns a period's parts into its value:
 * - `count`: the part's sum; a period without activity is "0". With `per`: the part summed at
 *   a resolution (a count of distinct accounts: the days' first ones of the period).
 * - `growth`: the part's sum over every day up to the period's end; a quiet period repeats it.
 * - `ratio`: `num / den` (× `times`), to 6 decimals; a period where `den` is 0 has no point.
 * - `interval`: seconds between blocks on average: the time from the last block before the
 *   period to its last block, over its blocks (the chain's first period: from its first block,
 *   over one block less). A period without blocks has no point.
 * - `level`: the part as last read up to the period's end (a day reads it when `has` > 0); no
 *   point before the first reading. With `den`: the reading over that part's, to 6 decimals.
 */
export type Measure =
  | {
      readonly kind: "count" | "growth";
      readonly part: string;
      readonly per?: Partial<Record<Resolution, string>>;
    }
  | { readonly kind: "level"; readonly part: string; readonly has: string; readonly den?: string }
  | { readonly kind: "ratio"; readonly num: string; readonly den: string; readonly times?: bigint }
  | { readonly kind: "interval" };

/** A point of a chart, as Blockscout's stats service writes it. */
export interface Point {
  readonly date: string;
  readonly date_to: string;
  readonly value: string;
  readonly is_approximate: boolean;
}

const DECIMALS = 6;

/** `num / den` as a decimal string, rounded half up to 6 decimals, trailing zeros left out. */
export const decimal = (num: bigint, den: bigint): string => {
  const scaled = (num * 10n ** BigInt(DECIMALS) * 2n + den) / (2n * den);
  const digits = scaled.toString().padStart(DECIMALS + 1, "0");
  const int = digits.slice(0, -DECIMALS);
  const frac = digits.slice(-DECIMALS).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
};

const earlier = (a: bigint, b: bigint): bigint => {
  if (b < a) return b;
  return a;
};
const later = (a: bigint, b: bigint): bigint => {
  if (b > a) return b;
  return a;
};
const COMBINE: Readonly<Record<string, (a: bigint, b: bigint) => bigint>> = {
  first_ms: earlier,
  last_ms: later,
};

/** Parts of two days together: first block time the earlier, last the later, the rest summed. */
const merge = (a: Parts, b: Parts): Parts => {
  const out: Record<string, bigint> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const was = out[k];
    out[k] = was === undefined ? v : (COMBINE[k] ?? ((x, y) => x + y))(was, v);
  }
  return out;
};

/** What the periods before carry into the next: sums so far, the last block's time. */
interface Carry {
  readonly total: bigint;
  readonly lastMs?: bigint;
  readonly level?: bigint;
  readonly levelDen?: bigint;
}

const pointValue = (m: Measure, p: Parts, carry: Carry): string | undefined => {
  const at = (k: string) => p[k] ?? 0n;
  switch (m.kind) {
    case "count":
      return at(m.part).toString();
    case "growth":
      return (carry.total + at(m.part)).toString();
    case "level":
      if (carry.level === undefined) return undefined;
      if (m.den === undefined) return carry.level.toString();
      return carry.levelDen ? decimal(carry.level, carry.levelDen) : undefined;
    case "ratio":
      return at(m.den) === 0n ? undefined : decimal(at(m.num) * (m.times ?? 1n), at(m.den));
    case "interval": {
      const blocks = at("blocks");
      if (blocks === 0n) return undefined;
      if (carry.lastMs !== undefined) return decimal(at("last_ms") - carry.lastMs, blocks * 1000n);
      return blocks > 1n
        ? decimal(at("last_ms") - at("first_ms"), (blocks - 1n) * 1000n)
        : undefined;
    }
  }
};

const carried = (m: Measure, p: Parts, c: Carry): Carry => ({
  total: c.total + ("part" in m ? (p[m.part] ?? 0n) : 0n),
  lastMs: p.last_ms ?? c.lastMs,
  level: c.level,
  levelDen: c.levelDen,
});

/** The level after a day: its reading when it has one. */
const read = (m: Measure, p: Parts, c: Carry): Carry =>
  m.kind === "level" && (p[m.has] ?? 0n) > 0n
    ? { ...c, level: p[m.part] ?? 0n, levelDen: m.den === undefined ? undefined : (p[m.den] ?? 0n) }
    : c;

/**
 * A chart's points from its days with activity (in order): every period from `from` to `to`
 * (default and bounds: the first and last day with activity), days with none filled in.
 * The days before `from` count only toward `growth` and `interval`.
 */
export const series = (
  days: readonly Day[],
  measure: Measure,
  q: { readonly from?: string; readonly to?: string; readonly resolution: Resolution },
): Point[] => {
  const m: Measure =
    "per" in measure && measure.per?.[q.resolution]
      ? { kind: measure.kind, part: measure.per[q.resolution]! }
      : measure;
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  if (first === undefined || last === undefined) return [];
  const from = q.from === undefined || q.from < first ? first : q.from;
  const to = q.to === undefined || q.to > last ? last : q.to;
  const byDay = new Map(days.map((d) => [d.day, d.parts]));
  let carry: Carry = { total: 0n };
  for (const d of days) if (d.day < from) carry = read(m, d.parts, carried(m, d.parts, carry));
  const points: Point[] = [];
  let open: { date: string; dateTo: string; parts: Parts } | undefined;
  const close = () => {
    if (!open) return;
    const value = pointValue(m, open.parts, carry);
    if (value !== undefined)
      points.push({ date: open.date, date_to: open.dateTo, value, is_approximate: false });
    carry = carried(m, open.parts, carry);
  };
  for (const day of daysBetween(from, to)) {
    const period = periodOf(day, q.resolution);
    if (open?.date !== period.date) {
      close();
      open = { ...period, parts: {} };
    }
    const parts = byDay.get(day) ?? {};
    carry = read(m, parts, carry);
    open.parts = merge(open.parts, parts);
  }
  close();
  return points;
};
