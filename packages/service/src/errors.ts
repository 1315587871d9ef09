/**
 * The project's errors have one base with two branches, and whether a failure is worth retrying
 * is decided by its class alone (`isRetryable`), never by its message or a flag:
 * - `Retryable`: it may pass on a retry (a node, the log or the store unreachable or busy);
 * - `Fatal`: retrying fails the same way (a bad setting, a refused answer, a record of another
 *   build, a fault of ours).
 * Effect code uses the tagged ones (tagged-errors.ts: `yield*` fails an effect with them,
 * `Effect.catchTag` finds them). This module imports nothing: plain errors cost a worker thread
 * no load time (Effect's core costs a projection worker seconds on a busy machine).
 */
export abstract class ExplorerError extends Error {
  abstract readonly retryable: boolean;
}

/** A failure that may pass on a retry. */
export class Retryable extends ExplorerError {
  readonly retryable = true;
}

/** A failure that a retry would repeat. */
export class Fatal extends ExplorerError {
  readonly retryable = false;
}

/**
 * Whether a retry may help, by class: a `Retryable` (also when Effect wraps it as the cause of an
 * UnknownError, as `Effect.tryPromise` without `catch` does). Anything else is not: a `Fatal`, and
 * an error from outside the project, which a caller that knows its source turns into one of ours
 * first (`asExplorerError`).
 */
export const isRetryable = (e: unknown): boolean =>
  e instanceof Retryable || (wrapped(e) !== undefined && isRetryable(wrapped(e)));

/** What Effect's UnknownError (a rejection that `Effect.tryPromise` without `catch` met) wraps. */
const wrapped = (e: unknown): unknown =>
  e instanceof Error && (e as { _tag?: unknown })._tag === "UnknownError" ? e.cause : undefined;

/** The message of anything thrown. */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * `e` as one of the project's errors: itself when it is one (or wraps one, as Effect's
 * UnknownError does), else `orElse` of its message with it as the cause: how a caller says what
 * a failure from outside the project (a library's, a system call's) means where it happened.
 */
export const asExplorerError = (
  e: unknown,
  orElse: new (message: string, options?: ErrorOptions) => ExplorerError,
): ExplorerError => {
  if (e instanceof ExplorerError) return e;
  const inner = wrapped(e) ?? e;
  if (inner instanceof ExplorerError) return inner;
  return new orElse(messageOf(inner), { cause: inner });
};
