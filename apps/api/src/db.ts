import type { ClickHouseClient } from "@clickhouse/client";
import { currentSet, queryFields, queryRows, setDb } from "@explorer/store";
import { Context, Effect } from "effect";
import { NotFound, StoreFailure } from "./http/errors.ts";

/** What the API reads: the current table set and how far it is projected. */
export interface StoreState {
  readonly db: string;
  readonly height: number;
  /** The lowest height indexed (1, or where the ingester was told to start; 0: none yet). */
  readonly first: number;
  readonly txsTotal: number;
  /**
   * Verified contracts projected so far, full matches counted twice (answers that show them change
   * when it moves): it grows with each new verification and each partial match replaced by a full
   * one, and never falls back when the table merges the replaced row away (read with FINAL).
   */
  readonly verified: number;
  /**
   * A fingerprint of what block answers show of their proposers (each validator's operator
   * address and description): a validator's new moniker changes blocks already answered.
   */
  readonly proposers: string;
}

export interface DbShape {
  /** The current set and projected height (cached briefly; refreshed when the projector moves). */
  readonly state: Effect.Effect<StoreState, StoreFailure>;
  /** The last state read, if still fresh (no effect to run: for the hot path); reads it ahead. */
  readonly peek: () => StoreState | undefined;
  /** Reads the state again now (the stream calls it before announcing new heights). */
  readonly refresh: Effect.Effect<StoreState, StoreFailure>;
  /**
   * Rows of a query with bound parameters; `{db}` in the SQL is the current table set and
   * `{projected}` the height it is projected up to (rows above it may be a batch being written).
   */
  readonly query: <T>(
    sql: string,
    params?: Record<string, unknown>,
  ) => Effect.Effect<T[], StoreFailure>;
  /** Rows as their fields' raw text (@explorer/store's queryFields: no tabs or newlines in them). */
  readonly fields: (
    sql: string,
    params: Record<string, unknown>,
    columns: number,
  ) => Effect.Effect<string[][], StoreFailure>;
}

export class Db extends Context.Service<Db, DbShape>()("api/Db") {}

export const makeDb = (
  ch: ClickHouseClient,
  base: string,
  ttlMs = 250,
  switchGraceMs = 30_000,
): DbShape => {
  let cached: { at: number; value: Promise<StoreState> } | undefined;
  let settled: { at: number; value: StoreState } | undefined;
  // A set's lowest height never changes once it has blocks: read once per set.
  const firsts = new Map<string, number>();
  const firstHeight = async (db: string) => {
    const known = firsts.get(db);
    if (known !== undefined) return known;
    const rs = await ch.query({
      query: `SELECT height FROM ${db}.blocks ORDER BY height LIMIT 1`,
      format: "JSONEachRow",
    });
    const first = Number((await rs.json<{ height: string | number }>())[0]?.height ?? 0);
    if (first > 0) firsts.set(db, first);
    return first;
  };
  const stateOf = async (db: string): Promise<StoreState> => {
    const rs = await ch.query({
      query: `SELECT max(height) AS h, argMax(txs_total, height) AS t, (SELECT count() + countIf(full_match) FROM ${db}.verified_contracts FINAL) AS v, (SELECT toString(sum(cityHash64(cons_address, operator_address, JSONExtractRaw(record, 'description')))) FROM ${db}.validators FINAL) AS p FROM ${db}.progress WHERE name = 'projector'`,
      format: "JSONEachRow",
    });
    const [row] = await rs.json<{
      h: string | number;
      t: string | number;
      v: string | number;
      p: string;
    }>();
    const height = Number(row?.h ?? 0);
    return {
      db,
      height,
      first: height > 0 ? await firstHeight(db) : 0,
      txsTotal: Number(row?.t ?? 0),
      verified: Number(row?.v ?? 0),
      proposers: row?.p ?? "",
    };
  };
  // The state last served (by the newest load that finished), and since when the current set has
  // been one not yet adopted (see load).
  let last: StoreState | undefined;
  let behindSince: { db: string; at: number } | undefined;
  let started = 0;
  let applied = 0;
  /**
   * A re-index switches to its set once that set holds the whole log, but the live projector may
   * have projected one more block into the old set meanwhile (it moves to the new set at its next
   * batch). The new set is adopted once it reaches the height already served, so that the height
   * never steps back (a stream client or a page of "latest" would see a block vanish and come
   * again); until then, for at most `switchGraceMs`, the old set is read. A new set that stays
   * behind longer (a log cut short), or whose old set was dropped, is adopted as it is. Loads may
   * overlap (a refresh while one runs): only the newest one started sets what is served, so a
   * slower, older one cannot bring an older state back.
   */
  const load = async (): Promise<StoreState> => {
    const mine = ++started;
    const set = await currentSet(ch, base);
    const next =
      set === undefined
        ? { db: setDb(base, 1), height: 0, first: 0, txsTotal: 0, verified: 0, proposers: "" }
        : await adopted(await stateOf(setDb(base, set)), last);
    if (mine > applied) {
      applied = mine;
      last = next;
    }
    return last ?? next;
  };
  /** The state to serve: `next`, or the set served before while `next` is behind it (see load). */
  const adopted = async (next: StoreState, prev: StoreState | undefined) => {
    if (prev && prev.db !== next.db && next.height < prev.height) {
      if (behindSince?.db !== next.db) behindSince = { db: next.db, at: Date.now() };
      if (Date.now() - behindSince.at < switchGraceMs) {
        // Only a dropped old set is given up on; any other failure fails this load (retried).
        const old = await stateOf(prev.db).catch((e: unknown) =>
          /UNKNOWN_DATABASE|database .* does(n't| not) exist/i.test(String(e))
            ? undefined
            : Promise.reject(e),
        );
        if (old && old.height >= prev.height) return old;
      }
    }
    behindSince = undefined;
    return next;
  };
  /** Starts a read of the state, now. */
  const readNow = (at: number) => {
    const value = load();
    cached = { at, value };
    // One handler for both outcomes: a failed read must not become an unhandled rejection
    // (which ends the process) while the store is away.
    value.then(
      (v) => {
        if (v === last) settled = { at, value: v }; // else a newer load has set it
      },
      () => {
        if (cached?.value === value) cached = undefined;
      },
    );
    return value;
  };
  /** The state, read again when older than `ttlMs` (one read for every caller meanwhile). */
  const current = (): Promise<StoreState> => {
    const now = Date.now();
    return !cached || now - cached.at > ttlMs ? readNow(now) : cached.value;
  };
  const readState = Effect.tryPromise({
    try: current,
    catch: (cause) => new StoreFailure({ message: "cannot read the store's state", cause }),
  });
  // A fresh state without an asynchronous step (each one costs the fiber a promise and an
  // AbortController: three or four of them in a page of a list).
  const state = Effect.suspend(() => {
    const fresh = peek();
    return fresh ? Effect.succeed(fresh) : readState;
  });
  const refresh = Effect.suspend(() => {
    cached = undefined;
    settled = undefined;
    return state;
  });
  const read = <T>(run: (sql: string) => Promise<T>, sql: string) =>
    Effect.flatMap(state, (s) =>
      Effect.tryPromise({
        try: () => run(sql.replaceAll("{db}", s.db).replaceAll("{projected}", String(s.height))),
        catch: (cause) =>
          new StoreFailure({ message: `query failed: ${(cause as Error).message}`, cause }),
      }),
    );
  const query = <T>(sql: string, params: Record<string, unknown> = {}) =>
    read((q) => queryRows<T>(ch, q, params), sql);
  const fields = (sql: string, params: Record<string, unknown>, columns: number) =>
    read((q) => queryFields(ch, q, params, columns), sql);
  /**
   * The last state read while it is fresh (at most `ttlMs` old). Past half that it starts the next
   * read, once, and answers the last state meanwhile: under load the new state is read before the
   * last one expires, so a hot request never waits on the store (every request in flight waited
   * for one read each time it expired: the served p99 of a hot answer at 50 clients). While that
   * read is still going, the last state is answered up to `4 × ttlMs` old: on a saturated main
   * thread a read took ~125 ms (2 cores, 50 clients), about what is left of `ttlMs`, and every
   * request that came meanwhile waited for it (a list's p99 of 100-270 ms where its p50 was 20).
   */
  const peek = () => {
    if (!settled) return undefined;
    const now = Date.now();
    const age = now - settled.at;
    // A failed read: the next one retries it.
    const reading = cached !== undefined && cached.at !== settled.at;
    if (age > ttlMs) return reading && age <= 4 * ttlMs ? settled.value : undefined;
    if (age > ttlMs / 2 && !reading) readNow(now).catch(() => {});
    return settled.value;
  };
  return { state, peek, refresh, query, fields };
};

/** The first row, or NotFound. */
export const one = <T>(rows: Effect.Effect<T[], StoreFailure>, what: string) =>
  Effect.flatMap(rows, (r) =>
    r[0] === undefined
      ? Effect.fail(new NotFound({ message: `${what} not found` }))
      : Effect.succeed(r[0]),
  );
