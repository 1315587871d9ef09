import { Effect, Exit } from "effect";
import type { DbShape } from "../db.ts";
import type { StoreFailure } from "../http/errors.ts";

/**
 * Reads kept by name for the current table set and projected height: the first request at a
 * height runs the read, the others (at once or later) share its result; the next height reads
 * again. A failed read is not kept. For reads many answers share (the stats' days: every chart
 * and the counters add up the same rows).
 */
export const perHeightReader = (db: DbShape) => {
  interface Kept {
    readonly db: string;
    readonly height: number;
    readonly exit: Promise<Exit.Exit<unknown, StoreFailure>>;
    /** The exit once settled: answered without waiting on a promise. */
    done?: Exit.Exit<unknown, StoreFailure>;
  }
  const kept = new Map<string, Kept>();
  const answer = <A>(e: Exit.Exit<unknown, StoreFailure>): Effect.Effect<A, StoreFailure> =>
    Exit.isSuccess(e) ? Effect.succeed(e.value as A) : Effect.failCause(e.cause);
  return <A>(name: string, read: Effect.Effect<A, StoreFailure>): Effect.Effect<A, StoreFailure> =>
    Effect.flatMap(db.state, (st) => {
      let k = kept.get(name);
      if (k?.db !== st.db || k.height !== st.height) {
        const exit = Effect.runPromiseExit(read);
        const made: Kept = { db: st.db, height: st.height, exit };
        kept.set(name, made);
        void exit.then((e) => {
          made.done = e;
          if (!Exit.isSuccess(e) && kept.get(name) === made) kept.delete(name);
        });
        k = made;
      }
      const { exit, done } = k;
      return done
        ? answer<A>(done)
        : Effect.flatMap(
            Effect.promise(() => exit),
            answer<A>,
          );
    });
};
