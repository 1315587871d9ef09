/**
 * chDB's streamed results (`Session.queryStream`, chdb 3.4) write each chunk as a whole answer of
 * its own: CSVWithNames and TSVWithNames repeat the header row at the head of every chunk, JSON is
 * a document per chunk (its `statistics` empty: rows_read 0), Parquet a file per chunk. The text
 * formats and JSON are joined here into one answer; Parquet cannot be (its footer indexes the row
 * groups of one file by their offsets).
 */

/** Formats whose chunks can be joined into one answer. */
export const STREAMED_FORMATS: ReadonlySet<string> = new Set([
  "CSVWithNames",
  "TSVWithNames",
  "JSON",
]);

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
 * The chunks of a streamed result in `format` as one answer (`started`: when the query was sent, in
 * `performance.now()` time, for JSON's `elapsed`).
 */
export const joinChunks = (
  chunks: AsyncIterable<Uint8Array>,
  format: string,
  started: number,
): AsyncGenerator<Uint8Array> =>
  format === "JSON" ? oneJson(chunks, started) : oneHeader(chunks, format);

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

const DATA_OPEN = Buffer.from('\n\t"data":\n\t[\n');
const DATA_CLOSE = Buffer.from('\n\t],\n\n\t"rows": ');
const ROW_SEPARATOR = Buffer.from(",\n");

/**
 * One chunk of the engine's JSON: its head (up to the data's opening bracket and newline), the text
 * of its rows (as the engine wrote them, without the separator after the last) and their count. A
 * newline in a value is escaped, so the markers around the rows are found as bytes.
 */
export const jsonChunk = (chunk: Uint8Array): { head: Buffer; rows: Buffer; count: number } => {
  const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const open = b.indexOf(DATA_OPEN);
  const close = b.lastIndexOf(DATA_CLOSE);
  if (open < 0 || close < open + DATA_OPEN.length)
    throw new Error("a streamed chunk is not the engine's JSON");
  const start = open + DATA_OPEN.length;
  const tail = b.subarray(close + DATA_CLOSE.length, close + DATA_CLOSE.length + 24).toString();
  return {
    head: b.subarray(0, start),
    rows: b.subarray(start, close),
    count: Number.parseInt(tail, 10),
  };
};

/**
 * JSON chunks as one document of the engine's shape: the first chunk's `meta`, every chunk's rows
 * in `data`, their `rows`, then `statistics` with `elapsed` measured here (from `started` to the
 * last row). chDB's stream says nothing of the rows and bytes read (each chunk's statistics say 0),
 * so `rows_read` and `bytes_read` are left out, as is `rows_before_limit_at_least`. No chunk: no
 * answer (nothing to take `meta` from).
 */
export async function* oneJson(
  chunks: AsyncIterable<Uint8Array>,
  started: number,
): AsyncGenerator<Uint8Array> {
  let count = 0;
  let first = true;
  let wrote = false;
  for await (const chunk of chunks) {
    const c = jsonChunk(chunk);
    if (first) yield c.head;
    first = false;
    if (c.rows.length > 0) {
      yield wrote ? Buffer.concat([ROW_SEPARATOR, c.rows]) : c.rows;
      wrote = true;
    }
    count += c.count;
  }
  if (first) return;
  const elapsed = Number(((performance.now() - started) / 1000).toFixed(9));
  yield Buffer.from(
    `\n\t],\n\n\t"rows": ${count},\n\n\t"statistics":\n\t{\n\t\t"elapsed": ${elapsed}\n\t}\n}\n`,
  );
}
