import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { log } from "@explorer/service/log";
import { engineFailure, type SqlFormat } from "@explorer/store/sql-sandbox";

/**
 * A streamed answer's body: its parts as they come, then `done()` (the query's place among those
 * running is given back when the answer has ended, not when it began). It is destroyed (the query
 * cancelled) when `response` closes first: a client gone, or a HEAD request, whose body is never
 * read. A CSV or TSV answer that fails after it began (a limit passed mid-way: its status was
 * already 200) ends with a line `# error after the answer began: <status> <message>`; a JSON one
 * is cut off (the connection closed), never silently, and the cut logged.
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
      const f = engineFailure(e);
      if (format === "csv" || format === "tsv") {
        yield `# error after the answer began: ${f.status} ${f.message}\n`;
        return;
      }
      log.info("SQL answer cut after it began", { status: f.status, error: f.message });
      // said here: Koa's error event (http/answer-errors.ts) logs no exposed error again
      throw Object.assign(new Error(f.message), { status: f.status, expose: true });
    }
  }
  const out = Readable.from(parts(), { objectMode: false });
  out.once("close", done);
  response.once("close", () => out.destroy());
  return out;
};
