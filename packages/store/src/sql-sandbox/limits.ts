/**
 * Limits of one SQL query, written as the engine's own settings (a SETTINGS clause the service
 * appends; the query itself may carry none). Pure.
 */
export interface SqlLimits {
  /** Seconds before the engine stops the query (TIMEOUT_EXCEEDED: a 408). */
  readonly maxExecutionS: number;
  /** Rows and bytes of the answer (past them: a 429). */
  readonly maxResultRows: number;
  readonly maxResultBytes: number;
  /** Rows and bytes read from tables (past them: a 429). */
  readonly maxRowsToRead: number;
  readonly maxBytesToRead: number;
  /** Memory of the query (past it: a 429). */
  readonly maxMemoryBytes: number;
}

export const DEFAULT_SQL_LIMITS: SqlLimits = {
  maxExecutionS: 30,
  maxResultRows: 1_000_000,
  maxResultBytes: 100 * 1024 * 1024,
  maxRowsToRead: 500_000_000,
  maxBytesToRead: 20 * 1024 * 1024 * 1024,
  maxMemoryBytes: 1024 * 1024 * 1024,
};

/**
 * The settings a sandboxed query runs with: the limits (each one an error when passed, never a
 * silent cut), one thread at low priority (`priority`: a larger number waits behind the API's own
 * queries on a server's scheduler; `os_threads_nice_value_query`: the thread's nice value),
 * 64-bit integers quoted in JSON, and `readonly = 1` last.
 */
export const limitSettings = (l: SqlLimits): [string, string | number][] => [
  ["max_execution_time", l.maxExecutionS],
  ["timeout_overflow_mode", "'throw'"],
  ["max_result_rows", l.maxResultRows],
  ["max_result_bytes", l.maxResultBytes],
  ["result_overflow_mode", "'throw'"],
  ["max_rows_to_read", l.maxRowsToRead],
  ["max_bytes_to_read", l.maxBytesToRead],
  ["read_overflow_mode", "'throw'"],
  ["max_memory_usage", l.maxMemoryBytes],
  ["max_threads", 1],
  ["priority", 10],
  // its threads at the lowest CPU priority (nice 19) while it runs, so the API's main thread and
  // the projector come first on a few cores (the engine needs CAP_SYS_NICE for it, else a no-op)
  ["os_threads_nice_value_query", 19],
  ["output_format_json_quote_64bit_integers", 1],
  ["readonly", 1],
];

/** The SETTINGS clause of `limitSettings`. */
export const settingsClause = (l: SqlLimits): string =>
  ` SETTINGS ${limitSettings(l)
    .map(([k, v]) => `${k} = ${v}`)
    .join(", ")}`;
