/** A parameter of a request as one text, trimmed (none when absent or given twice). */
export const textOf = (v: unknown): string | undefined =>
  typeof v === "string" ? v.trim() : undefined;

/**
 * The entry of `record` a request names: its own entries only, so that Object's own keys
 * (`toString`, `constructor`, `__proto__`) name none. Every lookup of a request's module or
 * action goes through here.
 */
export const named = <T>(record: Readonly<Record<string, T>>, name: unknown): T | undefined => {
  const n = textOf(name);
  return n !== undefined && Object.hasOwn(record, n) ? record[n] : undefined;
};
