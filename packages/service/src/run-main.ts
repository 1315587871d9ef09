import { constants as osConstants } from "node:os";
import { Cause, Effect, Layer, Runtime } from "effect";
import { Fatal } from "./errors.ts";
import { LoggingLive } from "./log.ts";

/**
 * Runs the main effect of a process: SIGINT/SIGTERM interrupt it (finalizers run: servers close,
 * logs flush), and the exit code tells how it ended. Same body as @effect/platform-node's
 * NodeRuntime.runMain, which needs Node 22; this project supports Node 20.
 */
export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    received = signal;
    fiber.interruptUnsafe(fiber.id);
  };
  fiber.addObserver((exit) => {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    teardown(exit, (code) => {
      // Stopped by a signal: 128 + its number, as a shell reports it (SIGTERM 143, SIGINT 130;
      // the teardown's 130 stands for any interruption); a failure while stopping stays 1.
      if (received && code === 130) process.exit(128 + osConstants.signals[received]);
      if (received || code !== 0) process.exit(code);
    });
  });
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
});

/** Runs a layer that does its work in the background until the process is told to stop. */
export const launch = <E>(layer: Layer.Layer<never, E>) =>
  runMain(
    Layer.launch(Layer.provide(layer, LoggingLive)).pipe(
      Effect.tapCause((c) => Effect.logError("stopped", c)),
    ),
  );

/** A logger at one level for plain callbacks (outside effects), through the current logger. */
const callbackAt = (log: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<never>();
    return (message: string): void => {
      Effect.runForkWith(context)(log(message));
    };
  });

export const callbackWarner = callbackAt(Effect.logWarning);
export const callbackInfo = callbackAt(Effect.logInfo);

/**
 * A setting the operator gave that cannot be used (its message names the setting and what it
 * takes): the process ends with that one line, as for a bad flag.
 */
export class SettingError extends Fatal {
  readonly _tag = "SettingError";
}

/** `f`'s value; what it throws is about the operator's setting (its message says which). */
export const asSetting = <A>(f: () => A): A => {
  try {
    return f();
  } catch (e) {
    throw e instanceof SettingError
      ? e
      : new SettingError(e instanceof Error ? e.message : String(e));
  }
};

/**
 * An error an operator can act on from its message alone: a system call's (EACCES, ENOTDIR,
 * EADDRINUSE…: it has a `code`) or one of the apps' and Effect's tagged errors (a bad setting, a
 * node that does not answer). Anything else is a fault, shown with its trace.
 */
const isOperational = (e: unknown): e is Error =>
  Cause.isUnknownError(e)
    ? isOperational(e.cause)
    : e instanceof Error && (typeof (e as { code?: unknown }).code === "string" || "_tag" in e);

/**
 * The failure in one line: `<tag or name>: <message>`, without the trace. A promise's rejection
 * that no catch named (Effect's UnknownError, "An error occurred in Effect.tryPromise") is
 * described by what it wraps: a server that refused the connection, say.
 */
export const failureLine = (e: Error): string => {
  if (Cause.isUnknownError(e) && e.cause instanceof Error) return failureLine(e.cause);
  const tag = (e as { _tag?: unknown })._tag;
  const what = typeof tag === "string" ? tag : e.name;
  return e.message ? `${what}: ${e.message}` : what;
};

/**
 * Ends the process on a failure an operator can act on with one line on stderr and exit code 1
 * (the whole cause goes to the log at Debug level); faults keep their trace, and an interruption
 * (Ctrl-C) is not a failure.
 */
export const failBriefly = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  program.pipe(
    Effect.catchCause((cause) => {
      const e = Cause.squash(cause);
      if (Cause.hasInterruptsOnly(cause) || !isOperational(e)) return Effect.failCause(cause);
      return Effect.logDebug("stopped", cause).pipe(
        Effect.andThen(
          Effect.sync(() => {
            process.stderr.write(`explorer: ${failureLine(e)}\n`);
            process.exit(1);
          }),
        ),
      );
    }),
  );
