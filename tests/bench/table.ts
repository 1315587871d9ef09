/** One figure of a benchmark, as `npm run bench` prints it. */
export interface Figure {
  readonly bench: string;
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}

const fmt = (v: number) =>
  Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3);

export const printTable = (figures: readonly Figure[]): string => {
  const rows = [
    ["bench", "metric", "value", "unit", "note"],
    ...figures.map((f) => [f.bench, f.metric, fmt(f.value), f.unit, f.note ?? ""]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [
    line(rows[0]!),
    `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
    ...rows.slice(1).map(line),
  ].join("\n");
};

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The `p`th percentile of `xs` (nearest rank); 0 for none. */
export const percentile = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};
