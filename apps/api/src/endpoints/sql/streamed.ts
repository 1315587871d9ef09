import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { engineFailure, type SqlFormat } from "@explorer/store/sql-sandbox";

/**
 * A streamed answer's body: its parts as they come, then `done()` (the query's place among those
 * running is given back when the answer has ended, not when it began). It is destroyed (the query
 * cancelled) when `response` closes first: a client gone, or a HEAD request, whose body is never
 * read. A CSV or TSV answer that fails after it began (a limit passed mid-way: its status was
 * already 200) ends with a line `# error after the answer began: <status> <message>`; a Parquet or
 * JSON one is cut off (the connection closed), never silently.
 */
export const streamedBody = (
  body: NodeJS.ReadableStream,
  format: SqlFormat,
  response: ServerResponse,
  done: () => void,
): Readable => {
  async function* parts() {
    try {
      for await (const part of body) yield part;
    } catch (e) {
      if (format !== "csv" && format !== "tsv") throw e;
      const f = engineFailure(e);
      yield `# error after the answer began: ${f.status} ${f.message}\n`;
    }
  }
  const out = Readable.from(parts(), { objectMode: false });
  out.once("close", done);
  response.once("close", () => out.destroy());
  return out;
};
