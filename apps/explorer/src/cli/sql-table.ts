/** The engine's JSON answer (format JSON): column names and types, rows as objects. */
export interface JsonAnswer {
  readonly meta: readonly { readonly name: string; readonly type: string }[];
  readonly data: readonly Readonly<Record<string, unknown>>[];
  readonly rows: number;
  readonly statistics?: { readonly elapsed?: number; readonly rows_read?: number };
}

const cell = (v: unknown): string =>
  v === null ? "NULL" : typeof v === "string" ? v : JSON.stringify(v);

/**
 * An answer as a text table: a header of column names, a rule, the rows (numbers right-aligned,
 * by their column's type), then the row count and what the engine read. Pure.
 */
export const renderTable = (a: JsonAnswer): string => {
  const names = a.meta.map((m) => m.name);
  const rows = a.data.map((r) => names.map((n) => cell(r[n]).replaceAll("\n", "\\n")));
  const widths = names.map((n, i) => Math.max(n.length, ...rows.map((r) => r[i]!.length)));
  const numeric = a.meta.map((m) => /^(Nullable\()?(U?Int|Float|Decimal)/.test(m.type));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const s = a.statistics;
  const foot = `${a.rows} row${a.rows === 1 ? "" : "s"}${s?.rows_read !== undefined ? `, ${s.rows_read} read` : ""}${s?.elapsed !== undefined ? ` in ${s.elapsed.toFixed(3)} s` : ""}`;
  return [
    line(names),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(line),
    foot,
    "",
  ].join("\n");
};
