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
