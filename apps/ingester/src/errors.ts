import { Data } from "effect";

/** The node cannot be reached or failed transiently: retried with backoff. */
export class NodeUnavailable extends Data.TaggedError("NodeUnavailable")<{
  readonly message: string;
}> {}

/** The node's answer makes going on pointless: wrong chain, pruned heights, bad configuration. */
export class BadSetup extends Data.TaggedError("BadSetup")<{ readonly message: string }> {}

/** The log refused or failed a write. */
export class LogFailure extends Data.TaggedError("LogFailure")<{
  readonly message: string;
  readonly retryable: boolean;
}> {}
