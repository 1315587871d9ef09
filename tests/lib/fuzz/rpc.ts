import { SPEC_METHODS, SUBSCRIPTION_NAMES } from "@explorer/rpc-proxy";
import fc from "fast-check";
import { LEAKS } from "./expect.ts";
import { deepJson } from "./json.ts";
import { hostileString } from "./strings.ts";

/**
 * Methods to fuzz the JSON-RPC proxy with: the SPEC's availability table (public, private,
 * not implemented), methods it does not list, and the proxy's own (eth_subscribe). Left out:
 * eth_sendTransaction and eth_sign, which use keys the node may hold (the fuzz must not change
 * the chain that other tests read).
 */
export const RPC_METHODS: readonly string[] = [
  ...[...SPEC_METHODS.keys()].filter((m) => m !== "eth_sendTransaction" && m !== "eth_sign"),
  "eth_chainId",
  "eth_feeHistory",
  "eth_getBlockReceipts",
  "admin_peers",
  "db_getString",
  "clique_getSigners",
  "rpc_modules",
];

/** A JSON value as raw text: ordinary values, hostile strings, or nested thousands deep. */
const rawValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), weight: 3 },
  { arbitrary: hostileString.map((s) => JSON.stringify(s)), weight: 2 },
  {
    // around V8's JSON.stringify limit (about 4,000) and Go's decoder's (10,000), and far beyond
    arbitrary: fc
      .tuple(
        fc.oneof(fc.integer({ min: 100, max: 12_000 }), fc.constant(200_000)),
        fc.constantFrom("array" as const, "object" as const),
      )
      .map(([d, k]) => deepJson(d, k)),
    weight: 1,
  },
);

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));
const quoted = (a: fc.Arbitrary<string>) => a.map((s) => JSON.stringify(s));

/** Filter ids as the proxy makes them (two hex digits naming the upstream, then the node's id). */
const filterId = fc.oneof(
  hex(16).map((h) => `0x00${h}`),
  hex(16).map((h) => `0xff${h}`),
  fc.constantFrom("0x00", "0x", "0x0G", "0X00ab"),
);

/** eth_getLogs filter objects: plausible ones, with odd keys and values, or deep values. */
const logFilter: fc.Arbitrary<string> = fc
  .record(
    {
      fromBlock: fc.oneof(
        fc.constantFrom('"0x1"', '"latest"', '"earliest"', '"0x0"', '"pending"', "null", "1"),
        rawValue,
      ),
      toBlock: fc.oneof(fc.constantFrom('"0x5"', '"latest"', '"0xffffffffffffffff"'), rawValue),
      address: fc.oneof(quoted(hex(20).map((h) => `0x${h}`)), rawValue),
      topics: fc.oneof(fc.constantFrom("[]", "[null]", "[[]]"), rawValue),
      blockHash: fc.oneof(quoted(hex(32).map((h) => `0x${h}`)), rawValue),
      extra: rawValue,
    },
    { requiredKeys: [] },
  )
  .map((r) => `{${Object.entries(r).map(([k, v]) => `${JSON.stringify(k)}:${v}`)}}`);

/**
 * Params of methods whose params the proxy reads itself (eth_getLogs from the index, filter ids
 * it made, the cache's block and transaction keys, eth_subscribe and eth_unsubscribe), as raw
 * text: right shapes, wrong types, extra and missing elements, values nested thousands deep.
 * `subscriptionIds` are ids of other clients' subscriptions (which must stay theirs).
 */
const paramsFor = (method: string, subscriptionIds: readonly string[]): fc.Arbitrary<string> => {
  const rest = fc.array(rawValue, { maxLength: 2 });
  const first = (() => {
    switch (method) {
      case "eth_getLogs":
        return logFilter;
      case "eth_getFilterChanges":
      case "eth_getFilterLogs":
      case "eth_uninstallFilter":
        return fc.oneof(quoted(filterId), rawValue);
      case "eth_subscribe":
        return fc.oneof(
          quoted(fc.constantFrom(...SUBSCRIPTION_NAMES)),
          quoted(fc.constantFrom("newheads", "NewHeads", "pendingTransactions", "", "logs ")),
          rawValue,
        );
      case "eth_unsubscribe":
        return fc.oneof(
          quoted(subscriptionIds.length ? fc.constantFrom(...subscriptionIds) : filterId),
          quoted(hex(16).map((h) => `0x${h}`)),
          rawValue,
        );
      default:
        return fc.oneof(quoted(hex(32).map((h) => `0x${h}`)), rawValue);
    }
  })();
  const second = method === "eth_subscribe" ? fc.oneof(logFilter, rawValue) : rawValue;
  return fc.oneof(
    fc.tuple(first, rest).map(([f, r]) => `[${[f, ...r].join(",")}]`),
    fc.tuple(first, second, rest).map(([f, s, r]) => `[${[f, s, ...r].join(",")}]`),
    fc.constantFrom("[]", "{}", "null", '"newHeads"', "1", "[[]]"),
    rawValue,
  );
};

/** Ids as raw text: the valid kinds (number, string, null, boolean) and those to refuse. */
const rawId = fc.oneof(
  fc.integer().map(String),
  quoted(fc.string({ maxLength: 20 })),
  fc.constantFrom("null", "true", "1.50", "123456789012345678901234567890", "-0", "1e400"),
  fc.constantFrom("[]", "{}", '{"a":1}', "[1]"),
);

/**
 * One message (raw text) for the methods whose params the proxy reads: see `paramsFor`. Also
 * without an id (a notification) or with a wrong `jsonrpc`, now and then.
 */
export const targetedRpcMessage = (subscriptionIds: readonly string[] = []): fc.Arbitrary<string> =>
  fc
    .constantFrom(
      "eth_getLogs",
      "eth_getFilterChanges",
      "eth_getFilterLogs",
      "eth_uninstallFilter",
      "eth_subscribe",
      "eth_unsubscribe",
      "eth_getBlockByHash",
      "eth_getBlockByNumber",
      "eth_getTransactionReceipt",
      "eth_getBlockReceipts",
    )
    .chain((method) =>
      fc.record({
        method: fc.constant(method),
        params: paramsFor(method, subscriptionIds),
        id: fc.option(rawId, { freq: 8 }),
        version: fc.oneof(
          { arbitrary: fc.constant('"2.0"'), weight: 8 },
          { arbitrary: fc.constantFrom('"1.0"', "2", "null"), weight: 1 },
        ),
      }),
    )
    .map(
      ({ method, params, id, version }) =>
        `{"jsonrpc":${version},${id === null ? "" : `"id":${id},`}"method":${JSON.stringify(method)},"params":${params}}`,
    );

/** A body of targeted messages: one, or a batch of a few. */
export const targetedRpcBody = (subscriptionIds: readonly string[] = []): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: targetedRpcMessage(subscriptionIds), weight: 3 },
    {
      arbitrary: fc
        .array(targetedRpcMessage(subscriptionIds), { minLength: 1, maxLength: 5 })
        .map((a) => `[${a.join(",")}]`),
      weight: 1,
    },
  );

/** What one body must get, by the rules docs/json-rpc.md states (geth's), not the proxy's parser. */
export type Expected =
  | { readonly kind: "none" }
  /** One answer object; for a refusal of the whole body, with id null. */
  | { readonly kind: "single"; readonly id: unknown }
  /** An array: one answer per call or invalid message, in order. */
  | { readonly kind: "batch"; readonly ids: readonly unknown[] };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a message is answered, and with which id. */
const answerOf = (v: unknown): { answered: boolean; id: unknown } => {
  if (!isObject(v)) return { answered: true, id: null };
  const version = v.jsonrpc === "2.0";
  const method = typeof v.method === "string" && v.method !== "";
  const hasId = Object.hasOwn(v, "id");
  const validId = hasId && (v.id === null || typeof v.id !== "object");
  if (version && method && validId) return { answered: true, id: v.id }; // a call
  if (version && method && !hasId) return { answered: false, id: null }; // a notification
  const response =
    version &&
    validId &&
    !method &&
    v.params === undefined &&
    (Object.hasOwn(v, "result") || Object.hasOwn(v, "error"));
  if (response) return { answered: false, id: null }; // ignored
  return { answered: true, id: validId ? v.id : null }; // invalid request
};

/** How deep arrays and objects nest in a parsed value (a scalar is 0), without recursion. */
const depthOf = (v: unknown): number => {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    max = Math.max(max, d);
    for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
};

/** Go's decoder refuses deeper JSON: to geth, and so to the proxy, it is not JSON. */
export const MAX_NESTING = 10_000;

export const expectedAnswer = (text: string, batchLimit: number): Expected => {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { kind: "single", id: null }; // parse error
  }
  if (depthOf(v) > MAX_NESTING) return { kind: "single", id: null }; // parse error
  if (!Array.isArray(v)) {
    const a = answerOf(v);
    return a.answered ? { kind: "single", id: a.id } : { kind: "none" };
  }
  if (v.length === 0) return { kind: "single", id: null }; // empty batch
  const answers = v.map(answerOf).filter((a) => a.answered);
  if (v.length > batchLimit) return { kind: "batch", ids: [answers[0]?.id ?? null] }; // too large
  return answers.length === 0 ? { kind: "none" } : { kind: "batch", ids: answers.map((a) => a.id) };
};

/**
 * Error codes a client may get: the proxy's (docs/json-rpc.md, "Errors") and those the reference
 * node answers bad input with, passed through (-32600 for malformed params of a subscription).
 * -32603 only as the node's own `method handler crashed` (cosmos/evm v0.3 panics on
 * eth_getBlockReceipts of a block hash it does not have): from the proxy it would be a bug.
 */
export const DOCUMENTED_CODES: ReadonlySet<number> = new Set([
  -32700, -32600, -32601, -32602, -32000, -32002, -32005, -32010, -32011,
]);
const NODE_CRASH = { code: -32603, message: "method handler crashed" };

const shapeProblem = (a: unknown, id: unknown): string | undefined => {
  if (!isObject(a)) return "not an object";
  if (a.jsonrpc !== "2.0") return `jsonrpc ${JSON.stringify(a.jsonrpc)}`;
  if (JSON.stringify(a.id) !== JSON.stringify(id))
    return `id ${JSON.stringify(a.id)}, expected ${JSON.stringify(id)}`;
  if (Object.hasOwn(a, "result") === Object.hasOwn(a, "error"))
    return "not exactly one of result and error";
  if (!Object.hasOwn(a, "error")) return undefined;
  const e = a.error as { code?: unknown; message?: unknown };
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== "string")
    return "error is not {code, message}";
  const nodeCrash = e.code === NODE_CRASH.code && e.message === NODE_CRASH.message;
  if (!DOCUMENTED_CODES.has(e.code as number) && !nodeCrash) return `undocumented code ${e.code}`;
  const leak = LEAKS.find((re) => re.test(e.message as string));
  if (leak) return `error leaks internals (${leak}): ${e.message.slice(0, 200)}`;
  return undefined;
};

/**
 * Why `text` (one answer, as sent over the wire) is not the answer `expected` describes, or
 * undefined when it is: JSON-RPC 2.0 objects, ids echoed in order, errors with documented codes
 * and messages without internals.
 */
export const answerProblem = (text: string, expected: Expected): string | undefined => {
  let a: unknown;
  try {
    a = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const why = (() => {
    if (expected.kind === "none") return "an answer to a body that gets none";
    if (expected.kind === "single") return shapeProblem(a, expected.id);
    if (!Array.isArray(a)) return "not an array";
    if (a.length !== expected.ids.length)
      return `${a.length} answers, expected ${expected.ids.length}`;
    for (const [i, x] of a.entries()) {
      const p = shapeProblem(x, expected.ids[i]);
      if (p) return `[${i}]: ${p}`;
    }
    return undefined;
  })();
  return why && `${why}: ${text.slice(0, 300)}`;
};

/** The signature of an expected answer (single or batch, and ids), to match answers with bodies. */
export const signatureOf = (e: Expected): string =>
  e.kind === "batch"
    ? `batch ${JSON.stringify(e.ids)}`
    : e.kind === "single"
      ? `single ${JSON.stringify(e.id)}`
      : "none";

/** The signature of an answer received (undefined when it is not JSON). */
export const signatureOfAnswer = (text: string): string | undefined => {
  try {
    const a = JSON.parse(text) as unknown;
    return Array.isArray(a)
      ? `batch ${JSON.stringify(a.map((x) => (x as { id?: unknown })?.id))}`
      : `single ${JSON.stringify((a as { id?: unknown })?.id)}`;
  } catch {
    return undefined;
  }
};
