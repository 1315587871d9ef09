/**
 * An answer, or part of one, that is JSON text already: a stored record sent as it was written
 * (by JSON.stringify, in the projector) rather than parsed and stringified again. For a block,
 * that work was ~0.03 ms of the main thread's ~0.17 ms per lookup (2 cores).
 */
export class JsonText {
  /** The JSON as text, or as its UTF-8 bytes (records/row-json.ts writes those). */
  constructor(readonly text: string | Uint8Array) {}

  /** The JSON as text. */
  toString(): string {
    return typeof this.text === "string" ? this.text : Buffer.from(this.text).toString("utf8");
  }

  /** Serialised anywhere jsonOf does not look (deeper in an answer, on the stream): still right, only slower. */
  toJSON(): unknown {
    return JSON.parse(this.toString());
  }
}

const holdsText = (v: unknown) =>
  v instanceof JsonText || (Array.isArray(v) && v.some((x) => x instanceof JsonText));

/** Whether `v` holds JsonText where jsonOf looks for it: at the top or as a value of the top object. */
export const holdsJsonText = (v: unknown): boolean =>
  holdsText(v) ||
  (v !== null && typeof v === "object" && Object.values(v).some((x) => holdsText(x)));

/**
 * An answer's JSON, as bytes: JsonText as it is, at the top or as a value of the top object (a
 * list's `docs`, a search's `record`, an Etherscan answer's `result`); anything else as
 * JSON.stringify writes it.
 */
export const jsonOf = (v: unknown): Buffer => {
  if (v instanceof JsonText)
    return typeof v.text === "string"
      ? Buffer.from(v.text)
      : Buffer.from(v.text.buffer, v.text.byteOffset, v.text.byteLength);
  if (!holdsJsonText(v)) return Buffer.from(JSON.stringify(v) ?? "null");
  const parts: Buffer[] = [];
  const add = (s: string) => parts.push(Buffer.from(s));
  if (Array.isArray(v))
    v.forEach((x, i) => {
      add(i === 0 ? "[" : ",");
      parts.push(jsonOf(x));
    });
  else {
    let sep = "{";
    for (const [k, x] of Object.entries(v as object))
      if (x !== undefined) {
        add(`${sep}${JSON.stringify(k)}:`);
        sep = ",";
        parts.push(jsonOf(x));
      }
  }
  add(Array.isArray(v) ? "]" : "}");
  return Buffer.concat(parts);
};
