/**
 * Answers that cannot change, kept by the proxy: CometBFT blocks are final once committed, so a
 * block, a transaction in a block, its receipt and a block's logs never change once the node has
 * them. Asked by hash, or by an explicit block number (never by a tag such as `latest`). Null
 * answers (not there yet) and pending transactions are not kept.
 */
export interface AnswerCache {
  get(key: string): string | undefined;
  set(key: string, value: string, weight: number): void;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const NUMBER = /^0x[0-9a-fA-F]+$/;

const isHash = (v: unknown) => typeof v === "string" && HASH.test(v);
const isNumber = (v: unknown) => typeof v === "string" && NUMBER.test(v);
const isBlockRef = (v: unknown) => isHash(v) || isNumber(v);

const RULES: Record<string, (p: readonly unknown[]) => boolean> = {
  eth_getBlockByHash: (p) => p.length === 2 && isHash(p[0]) && typeof p[1] === "boolean",
  eth_getBlockByNumber: (p) => p.length === 2 && isNumber(p[0]) && typeof p[1] === "boolean",
  eth_getTransactionByHash: (p) => p.length === 1 && isHash(p[0]),
  eth_getTransactionReceipt: (p) => p.length === 1 && isHash(p[0]),
  eth_getBlockTransactionCountByHash: (p) => p.length === 1 && isHash(p[0]),
  eth_getBlockTransactionCountByNumber: (p) => p.length === 1 && isNumber(p[0]),
  eth_getTransactionByBlockHashAndIndex: (p) => p.length === 2 && isHash(p[0]) && isNumber(p[1]),
  eth_getTransactionByBlockNumberAndIndex: (p) =>
    p.length === 2 && isNumber(p[0]) && isNumber(p[1]),
  eth_getBlockReceipts: (p) => p.length === 1 && isBlockRef(p[0]),
};

/** The cache key of a call whose answer cannot change, or undefined. */
export const cacheKey = (method: string, params: unknown): string | undefined => {
  const rule = RULES[method];
  if (!rule || !Array.isArray(params) || !rule(params)) return undefined;
  return `${method}:${JSON.stringify(params).toLowerCase()}`;
};

/** Whether the node's result (raw JSON) may be kept: not null, and not a pending transaction. */
export const keepable = (method: string, resultRaw: string): boolean => {
  if (resultRaw === "null" || resultRaw === "" || resultRaw === "[]") return false;
  if (method === "eth_getTransactionByHash") return !resultRaw.includes('"blockNumber":null');
  return true;
};
