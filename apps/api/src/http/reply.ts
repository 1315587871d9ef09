import type Koa from "koa";
import { acceptsGzip, GZIP_FROM_BYTES, gzip } from "./gzip.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Headers of a JSON answer, `gzipped` or not. One large enough to be compressed varies with
 * Accept-Encoding either way, which shared caches must know.
 */
export const jsonHeaders = (length: number, gzipped: boolean): Record<string, string> => ({
  "content-type": JSON_TYPE,
  ...(length >= GZIP_FROM_BYTES && { vary: "Accept-Encoding" }),
  ...(gzipped && { "content-encoding": "gzip" }),
});

/** Whether JSON of `length` bytes goes out gzip-compressed to a client sending this Accept-Encoding. */
export const compresses = (length: number, acceptEncoding: string | undefined) =>
  length >= GZIP_FROM_BYTES && acceptsGzip(acceptEncoding);

/** An error's body: `{error}`, never a stack trace. */
export const errorBody = (error: string) => ({ error });

/** What a fault answers (500): the request id to quote, the details in the log only. */
export const internalError = (id: string) => errorBody(`internal error (request id ${id})`);

/**
 * Sends JSON through Koa; gzip-compressed (`gzipped` makes it; undefined if it could not) where it
 * is large enough and the client accepts it.
 */
export const reply = async (
  ctx: Koa.Context,
  json: Buffer,
  gzipped: () => Promise<Buffer | undefined> = () => gzip(json).catch(() => undefined),
) => {
  const gz = compresses(json.length, ctx.get("accept-encoding")) ? await gzipped() : undefined;
  ctx.set(jsonHeaders(json.length, gz !== undefined));
  ctx.body = gz ?? json;
};
