/**
 * An engine error as the answer to a data team's query: a status and the engine's own message,
 * its first line only (never a stack trace). Pure.
 */
export interface SqlFailure {
  readonly status: 400 | 403 | 408 | 429;
  readonly code?: number;
  readonly message: string;
}

/** Engine error codes that are a limit of the service rather than a fault of the query. */
const LIMIT_CODES: ReadonlyMap<number, 408 | 429> = new Map([
  [159, 408], // TIMEOUT_EXCEEDED
  [158, 429], // TOO_MANY_ROWS
  [307, 429], // TOO_MANY_BYTES
  [396, 429], // TOO_MANY_ROWS_OR_BYTES
  [241, 429], // MEMORY_LIMIT_EXCEEDED
  [202, 429], // TOO_MANY_SIMULTANEOUS_QUERIES
]);
/** Refusals the engine itself made (a server's grants, readonly). */
const REFUSED_CODES = new Set([164, 497]); // READONLY, ACCESS_DENIED

export const engineFailure = (error: unknown): SqlFailure => {
  const text = error instanceof Error ? error.message : String(error);
  const line = (text.split("\n")[0] ?? "").replace(/\s*Stack trace[\s\S]*$/, "").slice(0, 2000);
  const m = /Code: (\d+)\./.exec(line);
  const code = m ? Number(m[1]) : undefined;
  const status =
    code === undefined ? 400 : (LIMIT_CODES.get(code) ?? (REFUSED_CODES.has(code) ? 403 : 400));
  return { status, code, message: line.replace(/^.*?DB::Exception: /, "") || "query failed" };
};
