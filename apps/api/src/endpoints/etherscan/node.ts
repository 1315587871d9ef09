import type { RpcProxy } from "@explorer/rpc-proxy";
import { Context, Effect } from "effect";
import { NotOk } from "./envelope.ts";

/**
 * The JSON-RPC proxy the API's server carries, one link per API (its runtime holds it): the node
 * calls of the Etherscan-style API go through it, with its availability policy, cache and index.
 * The proxy needs the API's runtime for its index, so it is made after it: rpc/attach.ts sets it
 * once attached, and unsets it when closed.
 */
export interface NodeLinkShape {
  readonly proxy: () => RpcProxy | undefined;
  readonly use: (p: RpcProxy | undefined) => void;
}

export class NodeLink extends Context.Service<NodeLink, NodeLinkShape>()("api/NodeLink") {}

/** A link with no proxy yet. */
export const makeNodeLink = (): NodeLinkShape => {
  let proxy: RpcProxy | undefined;
  return {
    proxy: () => proxy,
    use: (p) => {
      proxy = p;
    },
  };
};

/** One JSON-RPC call's answer: its result, or its error. */
export type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };

/** Calls in one batch through the proxy (as an anonymous client): the answers in call order. */
export const rpcBatch = (calls: readonly { method: string; params: readonly unknown[] }[]) =>
  Effect.gen(function* () {
    const p = (yield* NodeLink).proxy();
    if (!p)
      return yield* new NotOk({
        message: "this API instance has no JSON-RPC proxy (set RPC_UPSTREAMS) to ask the node",
      });
    if (calls.length === 0) return [] as RpcAnswer[];
    const text = JSON.stringify(
      calls.map((c, id) => ({ jsonrpc: "2.0", id, method: c.method, params: c.params })),
    );
    const answer = yield* Effect.promise(() =>
      p.handle(text, { privileged: false, transport: "http" }),
    );
    const parsed = JSON.parse(answer.body) as (RpcAnswer & { id: number })[] | RpcAnswer;
    if (!Array.isArray(parsed))
      return yield* new NotOk({ message: parsed.error?.message ?? "the node did not answer" });
    const byId = new Map(parsed.map((a) => [a.id, a]));
    return calls.map(
      (_, i): RpcAnswer => byId.get(i) ?? { error: { code: -32603, message: "no answer" } },
    );
  });

/** One call's result, or NOTOK with the node's (or the policy's) error. */
export const rpc = (method: string, params: readonly unknown[]) =>
  Effect.gen(function* () {
    const [a] = yield* rpcBatch([{ method, params }]);
    if (a?.error) return yield* new NotOk({ message: a.error.message });
    return a?.result;
  });
