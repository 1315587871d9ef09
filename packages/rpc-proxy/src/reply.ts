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
