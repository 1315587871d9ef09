import { isAboveHead, isHandlerCrash, isUnknownTx } from "@explorer/chain/node-answers";
import { withFirstElement } from "./raw-json.ts";
import type { Reply } from "./reply.ts";

/**
 * Where the node answers differently from geth in a way that breaks clients, the proxy answers
 * as geth does, with null for a thing that is not there:
 * - cosmos/evm (v0.3) answers eth_getTransactionReceipt for a transaction not (yet) in a block
 *   with an error ("… ethereum tx not found"); ethers' and viem's wait-for-receipt loops stop on
 *   that error instead of polling again.
 * - eth_getBlockReceipts of a block hash it does not have crashes its handler (-32603 "method
 *   handler crashed"), and of a height above its head is -32000 ("height … must be less than or
 *   equal to the current blockchain height …"). The execution-apis schema allows null there.
 *
 * The node's errors (their raw JSON text) that mean "not there", by method (node-answers).
 */
const NOT_THERE: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ["eth_getTransactionReceipt", isUnknownTx],
  ["eth_getBlockReceipts", (t: string) => isHandlerCrash(t) || isAboveHead(t)],
]);

/** Methods whose answers asGeth may change. */
export const QUIRKY: ReadonlySet<string> = new Set(NOT_THERE.keys());

export const asGeth = (method: string, reply: Reply): Reply =>
  "error" in reply && NOT_THERE.get(method)?.(reply.error) ? { result: "null" } : reply;

/** The SPEC's default gas of eth_sendTransaction (geth's old default): 90,000. */
export const DEFAULT_SEND_GAS = "0x15f90";

/**
 * eth_sendTransaction's params with the SPEC's default gas when the transaction object has none;
 * undefined when there is nothing to add (a gas given, params of another shape: the node judges
 * those). cosmos/evm (v0.3) estimates the gas of a transaction sent without one instead.
 */
export const withDefaultGas = (
  method: string,
  params: unknown,
  paramsRaw: () => string | undefined,
): string | undefined => {
  if (method !== "eth_sendTransaction" || !Array.isArray(params)) return undefined;
  const tx: unknown = params[0];
  if (tx === null || typeof tx !== "object" || Array.isArray(tx) || "gas" in tx) return undefined;
  const raw = paramsRaw();
  return raw === undefined
    ? undefined
    : withFirstElement(raw, JSON.stringify({ ...tx, gas: DEFAULT_SEND_GAS }));
};
