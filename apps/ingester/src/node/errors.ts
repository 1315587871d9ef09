import { Fatal, Retryable } from "@explorer/service/errors";

/** A node call failed in a way that may pass on a retry (network, timeout, 5xx, node busy). */
export class NodeUnavailableError extends Retryable {
  override readonly name = "NodeUnavailableError";
}

/** The node answered, but not what we can use: wrong chain, pruned height, bad request. Retrying will not help. */
export class NodeAnswerError extends Fatal {
  override readonly name = "NodeAnswerError";
}
