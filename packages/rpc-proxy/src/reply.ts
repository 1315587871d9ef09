import { UpstreamFailure } from "./http-post.ts";
import { ERR, errorObject, errorRawText, resultText } from "./jsonrpc.ts";
import type { Members } from "./raw-json.ts";

/** A call's answer: a raw JSON result, or a raw JSON-RPC error object (with an HTTP status). */
export type Reply =
  | { readonly result: string }
  | { readonly error: string; readonly status?: number };

/** The reply in a node's answer object (its raw members), or undefined when it holds neither. */
export const replyIn = (m: Members | undefined): Reply | undefined => {
  const error = m?.get("error");
  if (error) return { error };
  const result = m?.get("result");
  return result === undefined ? undefined : { result };
};

/** A local error reply (with the HTTP status of a single call, if not 200). */
export const fail = (code: number, message: string, status?: number): Reply => ({
  error: errorObject(code, message),
  ...(status ? { status } : {}),
});

/** The reply when no node answered. */
export const failure = (e: unknown): Reply =>
  e instanceof UpstreamFailure && e.kind === "timeout"
    ? fail(ERR.TIMEOUT, "request timed out")
    : fail(ERR.UNAVAILABLE, `no upstream node answered: ${(e as Error).message}`);

export const isError = (r: Reply): r is Extract<Reply, { error: string }> => "error" in r;
/** The whole answer object of a call with this raw id. */
export const replyText = (idRaw: string, r: Reply) =>
  isError(r) ? errorRawText(idRaw, r.error) : resultText(idRaw, r.result);

/** The node's answer to a call, from its raw JSON members. */
export const replyOf = (m: Members | undefined): Reply =>
  replyIn(m) ?? fail(ERR.UNAVAILABLE, "the node gave no answer to this call");
