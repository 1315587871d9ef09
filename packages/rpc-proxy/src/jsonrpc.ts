import { nestedDeeperThan, scanMembers } from "./raw-json.ts";

/**
 * JSON-RPC 2.0 messages as geth reads them (go-ethereum rpc/json.go and handler.go), so that the
 * proxy answers malformed input exactly as the node behind it would:
 * - a call has `jsonrpc: "2.0"`, a non-empty string `method` and an `id` that is not an object or
 *   an array (numbers, strings, null and booleans are ids);
 * - a notification is the same without an `id` member: it is run, and never answered;
 * - anything else is an invalid request, answered with its id when it has a valid one, else null;
 * - responses (result or error, no method) sent to the server are ignored.
 */
export const ERR = {
  PARSE: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  /** geth's default code for errors of a method (range too large, filter not found, …). */
  SERVER: -32000,
  /** geth's code for a request that timed out; the proxy uses it when the node does not answer in time. */
  TIMEOUT: -32002,
  /** EIP-1474 "limit exceeded": rate limits. */
  LIMIT: -32005,
  /** A private method without the operator's bearer token. */
  UNAUTHORIZED: -32010,
  /** No upstream node could answer (none configured, or none reachable). */
  UNAVAILABLE: -32011,
} as const;

export type Message =
  | { readonly kind: "call"; readonly method: string; readonly params: unknown }
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "invalid"; readonly hasId: boolean }
  | { readonly kind: "response" };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const classify = (v: unknown): Message => {
  if (!isObject(v)) return { kind: "invalid", hasId: false };
  const versionOk = v.jsonrpc === "2.0";
  const method = typeof v.method === "string" ? v.method : "";
  const hasIdMember = Object.hasOwn(v, "id");
  const validId = hasIdMember && !(typeof v.id === "object" && v.id !== null);
  if (versionOk && method !== "" && validId) return { kind: "call", method, params: v.params };
  if (versionOk && method !== "" && !hasIdMember)
    return { kind: "notification", method, params: v.params };
  if (
    versionOk &&
    validId &&
    method === "" &&
    v.params === undefined &&
    (Object.hasOwn(v, "result") || Object.hasOwn(v, "error"))
  )
    return { kind: "response" };
  return { kind: "invalid", hasId: validId };
};

export type Parsed =
  | { readonly kind: "parse-error" }
  | { readonly kind: "single"; readonly message: Message }
  | { readonly kind: "batch"; readonly messages: readonly Message[] };

/**
 * Go's encoding/json refuses JSON nested deeper than this, so to geth such a body is not JSON
 * (HTTP: `-32700 parse error`). The proxy reads it so too, whether it would answer the call
 * itself or forward it, and never handles values deeper than the node would.
 */
export const MAX_NESTING = 10_000;

export const parseBody = (text: string): Parsed => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "parse-error" };
  }
  if (nestedDeeperThan(text, MAX_NESTING)) return { kind: "parse-error" };
  return Array.isArray(value)
    ? { kind: "batch", messages: value.map(classify) }
    : { kind: "single", message: classify(value) };
};

/** The raw text of an error object `{code, message[, data]}`. */
export const errorObject = (code: number, message: string, dataRaw?: string) =>
  `{"code":${code},"message":${JSON.stringify(message)}${dataRaw === undefined ? "" : `,"data":${dataRaw}`}}`;

export const errorText = (idRaw: string, code: number, message: string) =>
  `{"jsonrpc":"2.0","id":${idRaw},"error":${errorObject(code, message)}}`;

export const errorRawText = (idRaw: string, errorRaw: string) =>
  `{"jsonrpc":"2.0","id":${idRaw},"error":${errorRaw}}`;

export const resultText = (idRaw: string, resultRaw: string) =>
  `{"jsonrpc":"2.0","id":${idRaw},"result":${resultRaw}}`;

export const requestText = (idRaw: string, method: string, paramsRaw: string | undefined) =>
  `{"jsonrpc":"2.0","id":${idRaw},"method":${JSON.stringify(method)}${paramsRaw === undefined ? "" : `,"params":${paramsRaw}`}}`;

export const notificationText = (method: string, paramsRaw: string | undefined) =>
  `{"jsonrpc":"2.0","method":${JSON.stringify(method)}${paramsRaw === undefined ? "" : `,"params":${paramsRaw}`}}`;

/** geth's answer to a method it does not serve. */
export const methodNotFound = (method: string) =>
  `the method ${method} does not exist/is not available`;

const ID_KEY: ReadonlySet<string> = new Set(["id"]);

/** How many messages a body holds (what a rate limit counts). */
export const messageCount = (p: Parsed): number => (p.kind === "batch" ? p.messages.length : 1);

/**
 * The same error for every call of a body (rate limits, bad credentials): one error object for a
 * single call, an array with one per call for a batch (ids echoed).
 */
export const refuseAll = (text: string, p: Parsed, code: number, message: string): string => {
  if (p.kind !== "batch") {
    const id =
      p.kind === "single" && p.message.kind === "call"
        ? (scanMembers(text, ID_KEY)[0]?.get("id") ?? "null")
        : "null";
    return errorText(id, code, message);
  }
  const ids = scanMembers(text, ID_KEY);
  const calls = p.messages.flatMap((m, i) =>
    m.kind === "call" ? [errorText(ids[i]?.get("id") ?? "null", code, message)] : [],
  );
  return calls.length === 0 ? errorText("null", code, message) : `[${calls.join(",")}]`;
};

/** Like geth, every JSON text written ends with a newline. */
export const withNewline = (text: string) =>
  text === "" || text.endsWith("\n") ? text : `${text}\n`;
