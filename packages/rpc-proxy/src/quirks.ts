import { withFirstElement } from "./raw-json.ts";
import type { Reply } from "./reply.ts";

/**
 * Where the node answers differently from geth in a way that breaks clients, the proxy answers
 * as geth does. cosmos/evm (v0.3) answers eth_getTransactionReceipt for a transaction not (yet)
 * in a block with an error ("… ethereum tx not found") where geth answers null; ethers' and viem's
 * wait-for-receipt loops stop on that error instead of polling again.
 */
export const QUIRKY: ReadonlySet<string> = new Set(["eth_getTransactionReceipt"]);

export const asGeth = (method: string, reply: Reply): Reply =>
  method === "eth_getTransactionReceipt" &&
  "error" in reply &&
  /ethereum tx not found/.test(reply.error)
    ? { result: "null" }
    : reply;

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
