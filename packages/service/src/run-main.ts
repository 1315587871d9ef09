import { Effect, Layer, Logger, References, Runtime } from "effect";

/**
 * Runs the main effect of a process: SIGINT/SIGTERM interrupt it (finalizers run: servers close,
 * logs flush), and the exit code tells how it ended. Same body as @effect/platform-node's
 * NodeRuntime.runMain, which needs Node 22; this project supports Node 20.
 */
export const runMain = Runtime.makeRunMain(({ fiber, teardown }) => {
  let receivedSignal = false;
  const onSignal = () => {
    receivedSignal = true;
    fiber.interruptUnsafe(fiber.id);
  };
  fiber.addObserver((exit) => {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    teardown(exit, (code) => {
      if (receivedSignal || code !== 0) process.exit(code);
    });
  });
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
});

/**
 * Logs: structured JSON lines on stderr when LOG_FORMAT=json (production), readable lines
 * otherwise; LOG_LEVEL sets the minimum level (default Info).
 */
export const LoggingLive = Layer.mergeAll(
  Logger.layer([process.env.LOG_FORMAT === "json" ? Logger.consoleJson : Logger.consolePretty()]),
  Layer.succeed(
    References.MinimumLogLevel,
    (process.env.LOG_LEVEL as "Info" | undefined) ?? "Info",
  ),
);

/** Runs a layer that does its work in the background until the process is told to stop. */
export const launch = <E>(layer: Layer.Layer<never, E>) =>
  runMain(
    Layer.launch(Layer.provide(layer, LoggingLive)).pipe(
      Effect.tapCause((c) => Effect.logError("stopped", c)),
    ),
  );

/** A warning logger for plain callbacks (outside effects), through the current logger. */
export const callbackWarner = Effect.gen(function* () {
  const context = yield* Effect.context<never>();
  return (message: string): void => {
    Effect.runForkWith(context)(Effect.logWarning(message));
  };
});
