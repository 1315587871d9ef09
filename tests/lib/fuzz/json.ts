import fc from "fast-check";
import { hostileString } from "./strings.ts";

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` times (built as text: no recursion anywhere). */
export const deepJson = (depth: number, kind: "array" | "object" = "array"): string =>
  kind === "array"
    ? "[".repeat(depth) + "]".repeat(depth)
    : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/**
 * A request body for any POST JSON endpoint: valid JSON of any shape (with hostile strings inside),
 * JSON nested thousands deep, wide arrays, long strings, duplicate and prototype keys, truncated or
 * non-JSON text. Give it to a POST route's fuzz property as is, or mixed with the route's own
 * valid bodies.
 */
export const jsonBody: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 3 },
  {
    arbitrary: fc
      .dictionary(hostileString, hostileString, { maxKeys: 5 })
      .map((d) => JSON.stringify(d)),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.integer({ min: 100, max: 200_000 }),
        fc.constantFrom("array" as const, "object" as const),
      )
      .map(([d, k]) => deepJson(d, k)),
    weight: 1,
  },
  {
    arbitrary: fc.integer({ min: 1000, max: 100_000 }).map((n) => `[${"0,".repeat(n)}0]`),
    weight: 1,
  },
  {
    arbitrary: fc
      .integer({ min: 1000, max: 300_000 })
      .map((n) => JSON.stringify({ a: "x".repeat(n) })),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom(
      "",
      " ",
      "null",
      "{",
      '{"a":',
      "[1,]",
      "{'a':1}",
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      '{"a":"\\ud800"}',
      '{"a":NaN}',
      "1e999999",
      "\u0000",
      "\ufeff{}",
      "a=1&b=2",
    ),
    weight: 2,
  },
  { arbitrary: hostileString, weight: 1 },
);

/** Bytes that are not UTF-8 inside otherwise valid JSON. */
export const invalidUtf8Json = (): Buffer =>
  Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]);

/** JSON-RPC ids: the valid ones (number, string, null) and the kinds a server must refuse. */
const rpcId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  fc.double(),
  fc.constantFrom(true, [], {}, 2 ** 64),
);

/**
 * One JSON-RPC 2.0 message: a method (from `methods`, e.g. the proxy's allow-list and its private
 * ones, or anything), params of any shape, odd ids, a wrong or missing `jsonrpc`, notifications.
 */
export const jsonRpcMessage = (methods: readonly string[]): fc.Arbitrary<unknown> =>
  fc.record(
    {
      jsonrpc: fc.oneof(
        { arbitrary: fc.constant("2.0"), weight: 5 },
        { arbitrary: fc.constantFrom("1.0", "2", 2, null), weight: 1 },
      ),
      id: rpcId,
      method: fc.oneof(
        {
          arbitrary: fc.constantFrom(...(methods.length ? methods : ["eth_blockNumber"])),
          weight: 4,
        },
        { arbitrary: hostileString, weight: 1 },
        { arbitrary: fc.constantFrom(1, null, [], {}), weight: 1 },
      ),
      params: fc.oneof(
        fc.array(fc.oneof(fc.jsonValue({ maxDepth: 3 }), hostileString), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.constantFrom("latest", 1, null, true),
      ),
    },
    { requiredKeys: [] },
  );

/**
 * A JSON-RPC request body: one message, a batch (empty, small, or beyond any batch limit), or any
 * JSON body at all. Send each as a POST body (HTTP) or as a text frame (WebSocket).
 */
export const jsonRpcBody = (methods: readonly string[], batchLimit = 100): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: jsonRpcMessage(methods).map((m) => JSON.stringify(m)), weight: 4 },
    {
      arbitrary: fc
        .array(jsonRpcMessage(methods), { minLength: 0, maxLength: 8 })
        .map((a) => JSON.stringify(a)),
      weight: 2,
    },
    {
      arbitrary: fc.integer({ min: batchLimit + 1, max: batchLimit * 3 }).map((n) =>
        JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            jsonrpc: "2.0",
            id: i,
            method: methods[0] ?? "eth_blockNumber",
            params: [],
          })),
        ),
      ),
      weight: 1,
    },
    { arbitrary: jsonBody, weight: 2 },
  );
