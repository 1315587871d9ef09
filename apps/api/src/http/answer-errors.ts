import { log } from "@explorer/service/log";
import type { ParameterizedContext } from "koa";

/** Codes of an answer whose client went away before its end (Node's streams and sockets). */
const CLIENT_GONE: ReadonlySet<string> = new Set([
  "ERR_STREAM_PREMATURE_CLOSE",
  "ERR_STREAM_DESTROYED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
]);

/** Whether `err` says the client left mid-answer (a CSV export, a SQL answer read part way). */
export const clientLeft = (err: unknown): boolean =>
  CLIENT_GONE.has(String((err as { code?: unknown } | undefined)?.code ?? ""));

/**
 * Koa's `error` event: a failure Koa saw itself, mostly once an answer had begun (a streamed
 * body's error, a client gone mid-answer). Without a listener Koa prints its stack on stderr; here
 * it goes through the one logger: a client gone is a debug line, an error whose reason was already
 * said (`expose`, Koa's mark: a SQL answer cut by a limit, logged where it was cut) nothing, any
 * other an error.
 */
export const onAppError = (err: Error & { expose?: boolean }, ctx?: ParameterizedContext): void => {
  const where = {
    requestId: ctx?.response.get("x-request-id") || undefined,
    path: ctx?.path,
  };
  if (clientLeft(err)) log.debug("client left mid-answer", { ...where, error: err.message });
  else if (!err.expose) log.error("answer failed", { ...where, error: String(err.stack ?? err) });
};
