import { Cause, Effect, Exit, Fiber, Logger } from "effect";
import { describe, expect, it } from "vitest";
import { closing, reportFailure } from "./exit.ts";

/**
 * How a run ends: a close that fails is logged and leaves a finished run's exit as it was, and a
 * failed run says why in one line on stderr (the log is on stdout, which a caller may not read).
 */
const logged: { level: string; message: string; cause: string }[] = [];
const capture = Logger.layer([
  Logger.make(({ logLevel, message, cause }) => {
    logged.push({ level: logLevel, message: String(message), cause: Cause.pretty(cause) });
  }),
]);
const run = <A, E>(effect: Effect.Effect<A, E>) => {
  logged.length = 0;
  return Effect.runPromiseExit(effect.pipe(Effect.provide(capture)));
};
const failingClose = () => Promise.reject(new Error("chDB would not close"));

describe("how a run ends", () => {
  it("a close that fails after a finished run is logged at error with its cause; the run still succeeds", async () => {
    const exit = await run(
      Effect.scoped(
        Effect.acquireRelease(Effect.succeed("replayed"), () => closing("the store", failingClose)),
      ),
    );
    expect(exit).toEqual(Exit.succeed("replayed"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: "Error", message: "closing the store failed" });
    expect(logged[0]!.cause).toContain("chDB would not close");
  });

  it("a failed run (here a finalizer that throws) writes one line on stderr saying why, and its cause to the log", async () => {
    const lines: string[] = [];
    const exit = await run(
      Effect.scoped(
        Effect.acquireRelease(Effect.succeed(1), () => Effect.promise(failingClose)),
      ).pipe(reportFailure("projector", (l) => lines.push(l))),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/projector stopped: Error: chDB would not close\n$/);
    expect(lines[0]!.trimEnd()).not.toContain("\n");
    expect(logged.map((l) => [l.level, l.message])).toEqual([["Error", "projector stopped"]]);
    expect(logged[0]!.cause).toContain("chDB would not close");
  });

  it("a stop (an interruption) is no failure: nothing on stderr", async () => {
    const lines: string[] = [];
    const exit = await run(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(
          Effect.never.pipe(reportFailure("projector", (l) => lines.push(l))),
        );
        yield* Fiber.interrupt(fiber);
      }),
    );
    expect(Exit.isSuccess(exit)).toBe(true);
    expect(lines).toEqual([]);
    expect(logged).toEqual([]);
  });
});
