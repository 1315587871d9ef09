import type { IncomingMessage } from "node:http";
import { Fatal } from "@explorer/service/errors";

/** Largest request body the API reads by default (API_MAX_BODY_BYTES). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest JSON nesting a body may have: deeper is refused before anything walks it. */
export const MAX_JSON_DEPTH = 64;

/** A request refused with an HTTP status and a message for the client (`{error}`). */
export class HttpRefusal extends Fatal {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const tooLarge = (limit: number) =>
  new HttpRefusal(413, `request body larger than ${limit} bytes`);

/** Nesting depth of JSON text, counted outside strings, in one pass (no recursion). */
export const jsonDepth = (text: string): number => {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
};

/**
 * Reads a request body of at most `limit` bytes: a declared length beyond it is refused (413)
 * before reading; a streamed (chunked) body is counted as it arrives and reading stops (413) at the
 * limit, so memory never holds more than `limit` (answer a 413 with `connection: close`).
 */
export const readBytes = (req: IncomingMessage, limit: number): Promise<Buffer> => {
  if (Number(req.headers["content-length"] ?? 0) > limit) return Promise.reject(tooLarge(limit));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (e?: Error) => {
      req.off("data", onData).off("end", onEnd).off("error", done);
      if (e) {
        req.pause(); // the rest is never read; answer with connection: close
        reject(e);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => done();
    req.on("data", onData).on("end", onEnd).on("error", done);
  });
};

/**
 * Reads a JSON request body with bounds: a declared length beyond `limit` is refused (413) before
 * reading; a streamed (chunked) body is counted as it arrives and reading stops (413) at the limit,
 * so memory never holds more than `limit` (answer a 413 with `connection: close`: the rest of the
 * body is never read). Then: a content-type other than JSON is a 415, bytes
 * that are not UTF-8, text that is not JSON or JSON nested beyond `maxDepth` a 400.
 */
export const readJsonBody = async (
  req: IncomingMessage,
  o: { limit?: number; maxDepth?: number } = {},
): Promise<unknown> => {
  const limit = o.limit ?? MAX_BODY_BYTES;
  const maxDepth = o.maxDepth ?? MAX_JSON_DEPTH;
  const type = String(req.headers["content-type"] ?? "application/json");
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))
    throw new HttpRefusal(415, "the body must be JSON (content-type: application/json)");
  const body = await readBytes(req, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new HttpRefusal(400, "the body is not valid UTF-8");
  }
  if (jsonDepth(text) > maxDepth)
    throw new HttpRefusal(400, `the body's JSON is nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new HttpRefusal(400, `the body is not JSON: ${(e as Error).message}`);
  }
};

/**
 * Reads a JSON (`application/json`, the default) or form (`application/x-www-form-urlencoded`)
 * body into an object, within `limit` bytes (the API's API_MAX_BODY_BYTES, which the app checks
 * against a declared length first); an empty body is `{}`. Refusals carry their status.
 */
export const readBody = async (
  ctx: { req: IncomingMessage; get(field: string): string },
  limit: number,
): Promise<Record<string, unknown>> => {
  const type = ctx.get("content-type").toLowerCase();
  if (type.includes("application/x-www-form-urlencoded")) {
    const bytes = await readBytes(ctx.req, limit);
    const fields = [...new URLSearchParams(bytes.toString("utf8"))];
    const names = new Set<string>();
    for (const [name] of fields) {
      if (names.has(name)) throw new HttpRefusal(400, `${name} is given twice in the form`);
      names.add(name);
    }
    return Object.fromEntries(fields);
  }
  if (Number(ctx.req.headers["content-length"] ?? -1) === 0) return {};
  const v = await readJsonBody(ctx.req, { limit });
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new HttpRefusal(400, "the body must be a JSON object");
  return v as Record<string, unknown>;
};
