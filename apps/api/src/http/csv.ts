/** The media type of a CSV answer (RFC 4180, UTF-8, a header row). */
export const CSV_TYPE = "text/csv; charset=utf-8";

/** Most rows one CSV answer holds; past them its last line says it was cut. */
export const CSV_MAX_ROWS = 1_000_000;

/** Records read from the list per step of a CSV answer. */
export const CSV_STEP = 1000;

/**
 * Whether a list's answer is CSV: `format=csv`, or no `format` and an Accept header that names
 * text/csv (before application/json, or without it). The route table checks `format`.
 */
export const wantsCsv = (format: string | undefined, accept: string | undefined): boolean => {
  if (format) return format.toLowerCase() === "csv";
  if (!accept) return false;
  const csv = accept.indexOf("text/csv");
  const json = accept.indexOf("application/json");
  return csv >= 0 && (json < 0 || csv < json);
};

/** One cell: nothing for null, nested values as their JSON text, quoted where RFC 4180 says. */
export const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return "";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** One line (CRLF-ended, as RFC 4180 has it) of `record`'s values under `columns`. */
export const csvLine = (columns: readonly string[], record: unknown): string => {
  const r = (record ?? {}) as Record<string, unknown>;
  return `${columns.map((c) => csvCell(r[c])).join(",")}\r\n`;
};

/** The header: every key of these records, in the order they first appear, then `more`. */
export const columnsOf = (records: readonly unknown[], more: readonly string[] = []): string[] => {
  const seen = new Set<string>();
  for (const r of records)
    if (r !== null && typeof r === "object") for (const k of Object.keys(r)) seen.add(k);
  for (const k of more) seen.add(k);
  return [...seen];
};

/** A step of the list: its records, and whether more follow. */
export interface Step {
  readonly docs: readonly unknown[];
  readonly hasNext: boolean;
}

/**
 * The lines of a CSV answer: the header (the first step's keys, then `more`: keys only some
 * records have, which the first step may lack), then every record of every step
 * (`next(n)`: step n, from 2), at most `max` of them. A last line starting with `#` says why the
 * answer ends early: cut at `max` rows, or the store failing mid-way (its message).
 */
export async function* csvLines(
  first: Step,
  next: (step: number) => Promise<Step>,
  max = CSV_MAX_ROWS,
  more: readonly string[] = [],
): AsyncGenerator<string> {
  const columns = columnsOf(first.docs, more);
  yield csvLine(columns, Object.fromEntries(columns.map((c) => [c, c])));
  let step: Step = first;
  let rows = 0;
  for (let n = 2; ; n++) {
    let out = "";
    for (const doc of step.docs) {
      if (rows === max) {
        yield `${out}# cut at ${max} rows: narrow the list with its filters\r\n`;
        return;
      }
      out += csvLine(columns, doc);
      rows++;
    }
    if (out) yield out;
    if (!step.hasNext) return;
    try {
      step = await next(n);
    } catch (e) {
      yield `# error after ${rows} rows: ${(e as Error).message}\r\n`;
      return;
    }
  }
}
