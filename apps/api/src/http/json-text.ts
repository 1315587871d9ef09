/**
 * An answer, or part of one, that is JSON text already: a stored record sent as it was written
 * (by JSON.stringify, in the projector) rather than parsed and stringified again. For a block,
 * that work was ~0.03 ms of the main thread's ~0.17 ms per lookup (2 cores).
 */
export class JsonText {
  constructor(readonly text: string) {}

  /** Serialised anywhere jsonOf does not look (deeper in an answer, on the stream): still right, only slower. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

const holdsText = (v: unknown) =>
  v instanceof JsonText || (Array.isArray(v) && v.some((x) => x instanceof JsonText));

/** Whether `v` holds JsonText where jsonOf looks for it: at the top or as a value of the top object. */
export const holdsJsonText = (v: unknown): boolean =>
  holdsText(v) ||
  (v !== null && typeof v === "object" && Object.values(v).some((x) => holdsText(x)));

/**
 * An answer's JSON: JsonText as it is, at the top or as a value of the top object (a list's
 * `docs`, a search's `record`); anything else as JSON.stringify writes it.
 */
export const jsonOf = (v: unknown): string => {
  if (v instanceof JsonText) return v.text;
  if (!holdsJsonText(v)) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => jsonOf(x)).join(",")}]`;
  const parts: string[] = [];
  for (const [k, x] of Object.entries(v as object))
    if (x !== undefined)
      parts.push(`${JSON.stringify(k)}:${holdsText(x) ? jsonOf(x) : JSON.stringify(x)}`);
  return `{${parts.join(",")}}`;
};
