import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { log } from "@explorer/service/log";
import { engineFailure, type SqlFailure, type SqlFormat } from "@explorer/store/sql-sandbox";

/**
 * A streamed answer's body: its parts as they come, then `done()` (the query's place among those
 * running is given back when the answer has ended, not when it began). It is destroyed (the query
 * cancelled) when `response` closes first: a client gone, or a HEAD request, whose body is never
 * read. A CSV or TSV answer that fails after it began (a limit passed mid-way: its status was
 * already 200) ends with a line `# error after the answer began: <status> <message>`; a JSON one
 * is cut off (the connection closed), never silently, and the cut logged. Past `maxBytes` sent
 * the answer fails the same way (429): the engine's max_result_bytes counts a constant column
 * once a block, so `SELECT repeat('x', 1e6) FROM numbers(1e5)` would pass it by far.
 */
export const streamedBody = (
  body: NodeJS.ReadableStream,
  format: SqlFormat,
  response: ServerResponse,
  done: () => void,
  maxBytes: number,
): Readable => {
  async function* cut(f: SqlFailure) {
    if (format === "csv" || format === "tsv") {
      yield `# error after the answer began: ${f.status} ${f.message}\n`;
      return;
    }
    log.info("SQL answer cut after it began", { status: f.status, error: f.message });
    // said here: Koa's error event (http/answer-errors.ts) logs no exposed error again
    throw Object.assign(new Error(f.message), { status: f.status, expose: true });
  }
  async function* parts() {
    let sent = 0;
    try {
      for await (const part of body) {
        sent += (part as Uint8Array).length;
        if (sent > maxBytes)
          return yield* cut({
            status: 429,
            message: `the answer passed max_result_bytes (${maxBytes} bytes): narrow the query or add a LIMIT`,
          });
        yield part;
      }
    } catch (e) {
      yield* cut(engineFailure(e));
    }
  }
  const out = Readable.from(parts(), { objectMode: false });
  out.once("close", () => {
    // Never read (the client went before it began): the engine's stream ends here all the same.
    (body as Partial<Readable>).destroy?.();
    done();
  });
  if (response.destroyed) out.destroy();
  else response.once("close", () => out.destroy());
  return out;
};
