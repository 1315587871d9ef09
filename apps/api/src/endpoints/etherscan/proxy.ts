import { Effect } from "effect";
import type { ActionRequest, Actions } from "./action.ts";
import { readArgs, text } from "./args.ts";
import { NotOk } from "./envelope.ts";
import { rpcBatch } from "./node.ts";

/** Each proxy action: its JSON-RPC method's parameters from the form, in order. */
const METHODS: Readonly<Record<string, (f: Record<string, string | undefined>) => unknown[]>> = {
  eth_blockNumber: () => [],
  eth_getBlockByNumber: (f) => [f.tag, f.boolean === "true"],
  eth_getBlockTransactionCountByNumber: (f) => [f.tag],
  eth_getTransactionByHash: (f) => [f.txhash],
  eth_getTransactionByBlockNumberAndIndex: (f) => [f.tag, f.index],
  eth_getTransactionCount: (f) => [f.address, f.tag ?? "latest"],
  eth_sendRawTransaction: (f) => [f.hex],
  eth_getTransactionReceipt: (f) => [f.txhash],
  eth_call: (f) => [{ to: f.to, data: f.data }, f.tag ?? "latest"],
  eth_getCode: (f) => [f.address, f.tag ?? "latest"],
  eth_getStorageAt: (f) => [f.address, f.position, f.tag ?? "latest"],
  eth_gasPrice: () => [],
  eth_estimateGas: (f) => [
    Object.fromEntries(
      Object.entries({
        to: f.to,
        data: f.data,
        value: f.value,
        gas: f.gas,
        gasPrice: f.gasPrice,
      }).filter(([, v]) => v !== undefined),
    ),
  ],
};

const FIELDS = {
  tag: text,
  boolean: text,
  txhash: text,
  index: text,
  address: text,
  hex: text,
  to: text,
  data: text,
  position: text,
  value: text,
  gas: text,
  gasPrice: text,
};

/**
 * module=proxy: the JSON-RPC call through the proxy (its availability policy applies), answered
 * as Etherscan does: `{"jsonrpc":"2.0","id":1,"result":…}` or the node's `error`.
 */
const call =
  (method: string, params: (f: Record<string, string | undefined>) => unknown[]) =>
  ({ form }: ActionRequest) =>
    Effect.gen(function* () {
      const f = yield* readArgs(FIELDS, form);
      const given = params(f).filter((p, i, all) => p !== undefined || i < all.length - 1);
      if (given.some((p) => p === undefined))
        return yield* new NotOk({ message: `Error! ${method}: a parameter is missing` });
      const [a] = yield* rpcBatch([{ method, params: given }]);
      return a?.error
        ? { jsonrpc: "2.0", id: 1, error: a.error }
        : { jsonrpc: "2.0", id: 1, result: a?.result ?? null };
    });

export const PROXY: Actions = Object.fromEntries(
  Object.entries(METHODS).map(([m, p]) => [m, call(m, p)]),
);
