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
