/** A node call failed in a way that may pass on a retry (network, timeout, 5xx, node busy). */
export class NodeUnavailableError extends Error {
  override readonly name = "NodeUnavailableError";
}

/** The node answered, but not what we can use: wrong chain, pruned height, bad request. Retrying will not help. */
export class NodeAnswerError extends Error {
  override readonly name = "NodeAnswerError";
}

/** Is this error worth retrying? Decided by class, not by message text. */
export const isRetryable = (e: unknown): boolean => e instanceof NodeUnavailableError;

/**
 * Does a node's error text say that it has not committed the height asked for yet? Its block
 * store (which CometBFT's status reports) is saved before the app commits the block, so for a
 * moment, and for longer while a restarted node catches up, a state query at a height the node
 * reports can fail. The texts are the Cosmos SDK's (baseapp's query context: "cannot query with
 * height in the future; please provide a valid height", "… is not ready; please wait for first
 * block"; the gRPC gateway: "… must be less than or equal to the current blockchain height").
 * Retryable: the same query answers once the block is committed, where a revert never would.
 */
export const heightNotCommitted = (text: string): boolean =>
  /cannot query with height in the future|must be less than or equal to the current blockchain height|please wait for first block/i.test(
    text,
  );
