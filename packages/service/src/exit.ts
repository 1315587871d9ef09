import { Cause, Effect } from "effect";
import { logSettings, writeEvent } from "./log.ts";
import { failureLine } from "./run-main.ts";

/**
 * How a process's run ends (the projector, the ingester, the API). Closes what a run opened (the
 * store, the log, NATS). A close that fails is logged at error with
 * its cause and leaves the exit code as the run made it. Deliberately: after a replay that ended
 * well, every batch's rows and its progress row were acknowledged by the store before the close,
 * so the work is done and the exit stays 0; the close only lets go of sessions and files, which
 * the process's end lets go of too. A run that failed keeps its own failure and exit 1. (Made
 * with `Effect.promise`, a rejected close was a defect: exit 1 after a finished replay.)
 */
export const closing = (what: string, close: () => Promise<unknown>) =>
  Effect.tryPromise(() => close()).pipe(
    Effect.catchCause((cause) => Effect.logError(`closing ${what} failed`, cause)),
  );

/** The line that says why a run failed: `<tag or name>: <message>` of its first error. */
export const stopReason = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.squash(cause);
  return e instanceof Error ? failureLine(e) : String(e);
};

/**
 * Reports a failed run of `app` (to be run inside the logger's layer, with runMain's own report
 * off): its whole cause in the log, and one line on stderr, in the log's format, saying why. The
 * log is on stdout, which a caller that keeps stderr alone never saw: an exit 1 looked silent. A
 * stop (an interruption) is no failure.
 */
export const reportFailure =
  (app: string, write: (line: string) => void = (l) => process.stderr.write(l)) =>
  <A, E, R>(run: Effect.Effect<A, E, R>) =>
    run.pipe(
      Effect.tapCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.void
          : Effect.logError(`${app} stopped`, cause).pipe(
              Effect.andThen(
                Effect.sync(() =>
                  writeEvent(
                    {
                      level: "Error",
                      time: new Date(),
                      message: `${app} stopped: ${stopReason(cause)}`,
                    },
                    logSettings(),
                    write,
                  ),
                ),
              ),
            ),
      ),
    );
