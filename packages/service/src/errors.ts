import { Cause, Data } from "effect";

/**
 * The project's errors have one base with two branches, and whether a failure is worth retrying
 * is decided by its class alone (`isRetryable`), never by its message or a flag:
 * - `Retryable`: it may pass on a retry (a node, the log or the store unreachable or busy);
 * - `Fatal`: retrying fails the same way (a bad setting, a refused answer, a record of another
 *   build, a fault of ours).
 * Every error is an Effect error too: `yield*` fails the effect with it, `Effect.catchTag` finds
 * the tagged ones (`RetryableError("Tag")`, `FatalError("Tag")`).
 */
export abstract class ExplorerError extends Data.Error<{
  readonly message: string;
  readonly cause?: unknown;
}> {
  abstract readonly retryable: boolean;
  constructor(message = "", options?: ErrorOptions) {
    super(options && "cause" in options ? { message, cause: options.cause } : { message });
  }
}

/** A failure that may pass on a retry. */
export class Retryable extends ExplorerError {
  readonly retryable = true;
}

/** A failure that a retry would repeat. */
export class Fatal extends ExplorerError {
  readonly retryable = false;
}

type Fields<A> = { readonly [P in keyof A as P extends "_tag" ? never : P]: A[P] };

/**
 * A tagged error class under `base`, built as `Data.TaggedError` builds one: constructed from its
 * fields (`message` among them), with `_tag` and `name` the tag.
 */
const taggedUnder =
  <B extends typeof Retryable | typeof Fatal>(base: B) =>
  <Tag extends string>(
    tag: Tag,
  ): (new <A extends { readonly message: string } = { readonly message: string }>(
    args: Fields<A>,
  ) => InstanceType<B> & { readonly _tag: Tag } & Readonly<A>) => {
    // biome-ignore lint/suspicious/noExplicitAny: the fields are assigned as Data.Error does
    class Tagged extends (base as any) {
      readonly _tag = tag;
      constructor(args: Record<string, unknown>) {
        super(args.message as string, "cause" in args ? { cause: args.cause } : undefined);
        Object.assign(this, args);
      }
    }
    Object.defineProperty(Tagged.prototype, "name", { value: tag, writable: true });
    // biome-ignore lint/suspicious/noExplicitAny: typed by the signature above
    return Tagged as any;
  };

/** `class NodeUnavailable extends RetryableError("NodeUnavailable")<{ readonly message: string }> {}` */
export const RetryableError = taggedUnder(Retryable);

/** `class BadSetup extends FatalError("BadSetup")<{ readonly message: string }> {}` */
export const FatalError = taggedUnder(Fatal);

/**
 * Whether a retry may help, by class: a `Retryable` (also when Effect wraps it as the cause of an
 * UnknownError, as `Effect.tryPromise` without `catch` does). Anything else is not: a `Fatal`, and
 * an error from outside the project, which a caller that knows its source turns into one of ours
 * first (`asExplorerError`).
 */
export const isRetryable = (e: unknown): boolean =>
  e instanceof Retryable || (Cause.isUnknownError(e) && isRetryable(e.cause));

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
  if (Cause.isUnknownError(e) && e.cause instanceof ExplorerError) return e.cause;
  const inner = Cause.isUnknownError(e) && e.cause !== undefined ? e.cause : e;
  return new orElse(messageOf(inner), { cause: inner });
};
