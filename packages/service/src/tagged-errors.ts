import type { YieldableError } from "effect/Cause";
import * as Data from "effect/Data";
import { Fatal, Retryable } from "./errors.ts";

/**
 * The project's tagged errors, for Effect code: `class BadSetup extends FatalError("BadSetup")<{
 * readonly message: string }> {}` is built as `Data.TaggedError` builds one (constructed from its
 * fields, `message` among them; `_tag` and `name` the tag; `yield*` fails an effect with it), and
 * is a `Fatal` (or, from `RetryableError`, a `Retryable`).
 */

/** The prototype of Effect's YieldableError, which Data.Error extends. */
const YIELDABLE = Object.getPrototypeOf(Data.Error.prototype) as object;

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
  ) => InstanceType<B> & YieldableError & { readonly _tag: Tag } & Readonly<A>) => {
    // biome-ignore lint/suspicious/noExplicitAny: the fields are assigned as Data.Error does
    class Tagged extends (base as any) {
      readonly _tag = tag;
      constructor(args: Record<string, unknown>) {
        super(args.message as string, "cause" in args ? { cause: args.cause } : undefined);
        Object.assign(this, args);
      }
    }
    Object.defineProperty(Tagged.prototype, "name", { value: tag, writable: true });
    // what makes Data.Error's instances effects that fail with themselves
    for (const key of Reflect.ownKeys(YIELDABLE))
      if (key !== "constructor")
        Object.defineProperty(
          Tagged.prototype,
          key,
          Object.getOwnPropertyDescriptor(YIELDABLE, key)!,
        );
    // biome-ignore lint/suspicious/noExplicitAny: typed by the signature above
    return Tagged as any;
  };

/** `class NodeUnavailable extends RetryableError("NodeUnavailable")<{ readonly message: string }> {}` */
export const RetryableError = taggedUnder(Retryable);

/** `class BadSetup extends FatalError("BadSetup")<{ readonly message: string }> {}` */
export const FatalError = taggedUnder(Fatal);
