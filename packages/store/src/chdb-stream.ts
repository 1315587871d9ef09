/**
 * chDB's streamed results (`Session.queryStream`, chdb 3.4) write each chunk as a whole answer of
 * its own: CSVWithNames and TSVWithNames repeat the header row at the head of every chunk (JSON and
 * Parquet would be a document per chunk). The text formats are joined here into one answer.
 */

/** Formats whose chunks can be joined into one answer: the text formats with a header row. */
export const STREAMED_FORMATS: ReadonlySet<string> = new Set(["CSVWithNames", "TSVWithNames"]);

const NL = 0x0a;
const QUOTE = 0x22;

/**
 * Where the header row at the head of `chunk` ends (just after its newline), or -1 without one. A
 * CSV name is quoted and may hold a newline (its quotes come in pairs); a TSV name is escaped.
 */
export const headerEnd = (chunk: Uint8Array, format: string): number => {
  const csv = format.startsWith("CSV");
  let quoted = false;
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (csv && b === QUOTE) quoted = !quoted;
    else if (b === NL && !quoted) return i + 1;
  }
  return -1;
};

const startsWith = (chunk: Uint8Array, head: Uint8Array) =>
  chunk.length >= head.length && head.every((b, i) => chunk[i] === b);

/**
 * The chunks of a streamed result in `format` as one answer: the first chunk whole, each later one
 * without the header row the first began with (a chunk that does not begin with it is passed on
 * whole). Other formats pass through unchanged.
 */
export async function* oneHeader(
  chunks: AsyncIterable<Uint8Array>,
  format: string,
): AsyncGenerator<Uint8Array> {
  let head: Uint8Array | undefined;
  for await (const chunk of chunks) {
    if (!STREAMED_FORMATS.has(format)) yield chunk;
    else if (head === undefined) {
      const end = headerEnd(chunk, format);
      head = chunk.slice(0, Math.max(0, end));
      yield chunk;
    } else if (head.length > 0 && startsWith(chunk, head)) {
      if (chunk.length > head.length) yield chunk.subarray(head.length);
    } else yield chunk;
  }
}
