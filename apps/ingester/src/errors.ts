import { FatalError, RetryableError } from "@explorer/service/tagged-errors";

/** The node cannot be reached or failed transiently: retried with backoff. */
export class NodeUnavailable extends RetryableError("NodeUnavailable")<{
  readonly message: string;
}> {}

/** The node's answer makes going on pointless: wrong chain, pruned heights, bad configuration. */
export class BadSetup extends FatalError("BadSetup")<{ readonly message: string }> {}

/** The log cannot be reached or used for now (a NATS server restarting): the write is retried. */
export class LogUnavailable extends RetryableError("LogUnavailable")<{
  readonly message: string;
}> {}

/** The log refused a write (out of order, say): retrying would be refused the same way. */
export class LogRefused extends FatalError("LogRefused")<{ readonly message: string }> {}
