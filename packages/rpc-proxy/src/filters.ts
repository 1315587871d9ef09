/**
 * Filters live in one node: the proxy creates a filter on an upstream and gives the client an id
 * that names that upstream (two hex digits of its position in RPC_UPSTREAMS before the node's own
 * id), so every later call on the filter goes to the same node, from any API instance with the
 * same upstream list, without shared state.
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
const OUR_ID = /^0x([0-9a-f]{2})([0-9a-fA-F]*)$/;

/** The client's id of filter `nodeId` on upstream `index`; undefined when the node's id has another shape. */
export const wrapFilterId = (index: number, nodeId: string): string | undefined =>
  NODE_ID.test(nodeId) && index < 256
    ? `0x${index.toString(16).padStart(2, "0")}${nodeId.slice(2)}`
    : undefined;

/** The upstream and the node's id behind a client's filter id, or undefined for ids not made here. */
export const unwrapFilterId = (id: unknown): { index: number; nodeId: string } | undefined => {
  if (typeof id !== "string") return undefined;
  const m = OUR_ID.exec(id);
  return m ? { index: Number.parseInt(m[1]!, 16), nodeId: `0x${m[2]}` } : undefined;
};
