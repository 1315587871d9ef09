import { Effect } from "effect";
import type { DbShape, StoreState } from "../db.ts";
import { logLine } from "../log.ts";
import type { RecordCache, RecordChunk } from "./record-cache.ts";

/** Blocks read from the store at a time. */
const CHUNK_BLOCKS = 200;

export interface RecordFollower {
  /** The addresses of `st`'s verified contracts (lowercase), once read for its count; else undefined. */
  readonly verifiedOf: (st: StoreState) => ReadonlySet<string> | undefined;
  /** Resolves once `set`'s records are kept up to `height` (for benchmarks and tests). */
  readonly filledTo: (set: string, height: number) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/**
 * Keeps the record cache filled with what the store has projected: every `everyMs` (and at once),
 * the blocks above the cache's height up to the projected one are read in chunks and kept. The
 * catch-up after a start on a large store (~16,000 transactions a second on 2 cores) reads at
 * most half the time (a pause as long as each chunk took), so that a projector in the same
 * process keeps most of the machine; a line on stderr every 10 s says how far it is. A failed
 * read is logged and tried again at the next turn; lookups meanwhile are read from the store.
 */
export const followRecords = (cache: RecordCache, db: DbShape, everyMs = 1000): RecordFollower => {
  let stopped = false;
  let running: Promise<void> | undefined;
  let verified: { db: string; count: number; addresses: ReadonlySet<string> } | undefined;
  const waiters = new Set<{ set: string; height: number; done: () => void }>();
  const wake = () => {
    for (const w of waiters)
      if (cache.filled(w.set) >= w.height) {
        waiters.delete(w);
        w.done();
      }
  };
  const turn = async () => {
    const st = await Effect.runPromise(db.state);
    if (st.height === 0) return;
    if (verified?.db !== st.db || verified.count !== st.verified)
      verified = { db: st.db, count: st.verified, addresses: await verifiedAddresses(db, st) };
    if (cache.set !== st.db) cache.use(st.db, await stampOf(db, st));
    const start = cache.filled(st.db);
    let lastSaid = Date.now();
    while (!stopped && cache.filled(st.db) < st.height) {
      const t0 = performance.now();
      const from = Math.max(cache.filled(st.db) + 1, st.first);
      const to = Math.min(st.height, from + CHUNK_BLOCKS - 1);
      await cache.put(st.db, await readChunk(db, st.db, from, to));
      wake();
      if (Date.now() - lastSaid > 10_000) {
        lastSaid = Date.now();
        logLine("info", {
          msg: "record cache filling",
          set: st.db,
          filled: to,
          of: st.height,
          from: start,
        });
      }
      if (to < st.height) await sleep(performance.now() - t0);
    }
  };
  const tick = () => {
    running ??= turn()
      .catch((e: unknown) => {
        logLine("warn", { msg: "record cache: reading the store failed", error: String(e) });
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return {
    verifiedOf: (st) =>
      verified?.db === st.db && verified.count === st.verified ? verified.addresses : undefined,
    filledTo: (set, height) =>
      new Promise((done) => {
        waiters.add({ set, height, done });
        wake();
      }),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      cache.close();
    },
  };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a set's kept file must match: its last migration (one may rewrite records) and its first
 * block's record (a set deleted and made again under the same name, from another chain or start).
 */
const stampOf = async (db: DbShape, st: StoreState) => {
  const [row] = await Effect.runPromise(
    db.fields(
      `SELECT (SELECT max(name) FROM ${st.db}._migrations), (SELECT toString(cityHash64(any(record))) FROM ${st.db}.blocks WHERE height = {first:UInt64})`,
      { first: st.first },
      2,
    ),
  );
  return `${row?.[0]}/${st.first}/${row?.[1]}`;
};

const verifiedAddresses = async (db: DbShape, st: StoreState) =>
  st.verified === 0
    ? new Set<string>()
    : new Set(
        (
          await Effect.runPromise(
            db.fields(`SELECT address, 0 FROM ${st.db}.verified_contracts FINAL`, {}, 2),
          )
        ).map(([a]) => a!.toLowerCase()),
      );

/** The records of heights `from`..`to` of `set` (each key of a transaction as the lookup index has it). */
const readChunk = async (
  db: DbShape,
  set: string,
  from: number,
  to: number,
): Promise<RecordChunk> => {
  const range = { a: from, b: to };
  const [txs, blocks] = await Promise.all([
    Effect.runPromise(
      db.fields(
        `SELECT height, idx, arrayStringConcat(arrayConcat([concat('h:', txhash)], arrayMap(x -> concat('e:', x), evm_hashes)), ' '), record FROM ${set}.txs FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height, idx`,
        range,
        4,
      ),
    ),
    Effect.runPromise(
      db.fields(
        `SELECT height, proposer_cons, record FROM ${set}.blocks FINAL WHERE height BETWEEN {a:UInt64} AND {b:UInt64} ORDER BY height`,
        range,
        3,
      ),
    ),
  ]);
  return {
    from,
    to,
    txs: txs.map(
      ([h, idx, keys, record]) => [Number(h), Number(idx), keys!.split(" "), record!] as const,
    ),
    blocks: blocks.map(([h, p, record]) => [Number(h), p!, record!] as const),
  };
};
