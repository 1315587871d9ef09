import { Cause, Effect, Exit } from "effect";
import { describe, expect, it } from "vitest";
import { asExplorerError, ExplorerError, Fatal, isRetryable, Retryable } from "./errors.ts";
import { FatalError, RetryableError } from "./tagged-errors.ts";

class Busy extends RetryableError("Busy")<{ readonly message: string; readonly height: number }> {}
class Wrong extends FatalError("Wrong")<{ readonly message: string }> {}
class Gone extends Retryable {
  override readonly name = "Gone";
}

describe("one error model", () => {
  it("decides retries by class: tagged and plain errors of each branch", () => {
    const busy = new Busy({ message: "node busy", height: 7 });
    expect([busy._tag, busy.name, busy.message, busy.height]).toEqual([
      "Busy",
      "Busy",
      "node busy",
      7,
    ]);
    expect(busy).toBeInstanceOf(Retryable);
    expect(busy).toBeInstanceOf(ExplorerError);
    expect(busy).toBeInstanceOf(Error);
    expect(isRetryable(busy)).toBe(true);
    expect(isRetryable(new Gone("log away"))).toBe(true);
    expect(isRetryable(new Wrong({ message: "wrong chain" }))).toBe(false);
    expect(isRetryable(new Fatal("bad record"))).toBe(false);
    expect(isRetryable(new Error("ECONNREFUSED"))).toBe(false);
    expect(isRetryable("text")).toBe(false);
  });

  it("an error is an Effect failure: yield* fails with it and catchTag finds it by tag", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        return yield* new Wrong({ message: "no" });
      }),
    );
    expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toBeInstanceOf(Wrong);
    const caught = await Effect.runPromise(
      Effect.fail(new Busy({ message: "later", height: 1 })).pipe(
        Effect.catchTag("Busy", (e) => Effect.succeed(e.height)),
      ),
    );
    expect(caught).toBe(1);
  });

  it("sees through Effect's UnknownError, and names what a foreign failure means", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.tryPromise(() => Promise.reject(new Gone("away"))),
    );
    const e = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined;
    expect(isRetryable(e)).toBe(true);
    expect(asExplorerError(e, Fatal)).toBeInstanceOf(Gone);
    const foreign = new TypeError("x is undefined");
    const named = asExplorerError(foreign, Retryable);
    expect([named instanceof Retryable, named.message, named.cause]).toEqual([
      true,
      "x is undefined",
      foreign,
    ]);
  });
});
