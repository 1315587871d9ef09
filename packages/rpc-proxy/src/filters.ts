/**
 * Filters live in one node: the proxy creates a filter on an upstream and gives the client an id
 * that names that upstream (two hex digits, 0x10 plus its position in RPC_UPSTREAMS, before the
 * node's own id), so every later call on the filter goes to the same node, from any API instance
 * with the same upstream list, without shared state. The first digit is never 0: a filter id is a
 * quantity in the Ethereum JSON-RPC specification (`^0x(0|[1-9a-f][0-9a-f]*)$`), and strict
 * clients refuse one with a leading zero.
 */
export const FILTER_CREATE: ReadonlySet<string> = new Set([
  "eth_newFilter",
  "eth_newBlockFilter",
  "eth_newPendingTransactionFilter",
]);

export const FILTER_USE: ReadonlySet<string> = new Set([
  "eth_getFilterChanges",
  "eth_getFilterLogs",
  "eth_uninstallFilter",
]);

const NODE_ID = /^0x[0-9a-fA-F]*$/;
const OUR_ID = /^0x([1-9a-f][0-9a-f])([0-9a-fA-F]*)$/;
/** Added to an upstream's position, so that the id's first digit is not 0. */
const BASE = 0x10;
/** Upstreams a filter id can name: those whose position fits in the two digits. */
export const MAX_FILTER_UPSTREAMS = 0x100 - BASE;

/** The client's id of filter `nodeId` on upstream `index`; undefined when the node's id has another shape. */
export const wrapFilterId = (index: number, nodeId: string): string | undefined =>
  NODE_ID.test(nodeId) && index >= 0 && index < MAX_FILTER_UPSTREAMS
    ? `0x${(BASE + index).toString(16)}${nodeId.slice(2)}`
    : undefined;

/** The upstream and the node's id behind a client's filter id, or undefined for ids not made here. */
export const unwrapFilterId = (id: unknown): { index: number; nodeId: string } | undefined => {
  if (typeof id !== "string") return undefined;
  const m = OUR_ID.exec(id);
  return m ? { index: Number.parseInt(m[1]!, 16) - BASE, nodeId: `0x${m[2]}` } : undefined;
};
