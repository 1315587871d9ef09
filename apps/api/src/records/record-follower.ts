import { gzipSync } from "node:zlib";
import { Effect } from "effect";
import type { DbShape, StoreState } from "../db.ts";
import { logLine } from "../log.ts";
import { listRows } from "./list-fill.ts";
import type { RecordCache, RecordChunk } from "./record-cache.ts";

/** Transactions read from the store at a time, about (the blocks of a chunk are sized to it). */
const CHUNK_TXS = 2000;
/** Records compressed between two turns of the event loop (~2 ms of the main thread). */
const SLICE = 50;

export interface RecordFollower {
  /** The addresses of `st`'s verified contracts (lowercase), once read for its count; else undefined. */
  readonly verifiedOf: (st: StoreState) => ReadonlySet<string> | undefined;
  /**
   * Fills now what the store has projected since (a request found the cache behind: it is read
   * from the store, and the next ones of that height from the cache); at once if a turn runs.
   */
  readonly nudge: () => void;
  /** Resolves once `set`'s records are kept up to `height` (for benchmarks and tests). */
  readonly filledTo: (set: string, height: number) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/**
 * Keeps the record cache filled with what the store has projected: every `everyMs` (and at once),
 * the blocks above the cache's height up to the projected one are read in chunks of about
 * CHUNK_TXS transactions and kept, their records compressed a few at a time between turns of the
 * event loop (requests are answered in between). The catch-up after a start on a large store
 * works at most half the time (a pause as long as each chunk took), so that a projector in the
 * same process keeps most of the machine; a line on stderr every 10 s says how far it is. It stops
 * when the API moves to another table set, and goes on with that one. The set's stamp is read
 * every turn (a migration applied meanwhile empties the file). A failure is logged (once until it
 * changes) and tried again at the next turn; lookups meanwhile are read from the store.
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
  let blocksPerChunk = 50;
  const turn = async () => {
    const st = await Effect.runPromise(db.state);
    if (st.height === 0) return;
    if (verified?.db !== st.db || verified.count !== st.verified)
      verified = { db: st.db, count: st.verified, addresses: await verifiedAddresses(db, st) };
    await cache.use(st.db, await stampOf(db, st.db));
    wake(); // a file kept from before may hold all already
    const start = cache.filled(st.db);
    let lastSaid = Date.now();
    while (!stopped && cache.filled(st.db) < st.height && (db.peek()?.db ?? st.db) === st.db) {
      const t0 = performance.now();
      const from = Math.max(cache.filled(st.db) + 1, st.first);
      const to = Math.min(st.height, from + blocksPerChunk - 1);
      const chunk = await readChunk(db, st.db, from, to);
      if (stopped || cache.set !== st.db) return;
      cache.put(st.db, chunk);
      wake();
      // the next chunk's blocks: about CHUNK_TXS transactions at this chunk's rate
      const perBlock = chunk.txs.length / (to - from + 1);
      blocksPerChunk = Math.max(1, Math.min(1000, Math.floor(CHUNK_TXS / Math.max(perBlock, 1))));
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
  let lastError = "";
  const tick = () => {
    running ??= turn()
      .then(
        () => {
          lastError = "";
        },
        (e: unknown) => {
          if (String(e) !== lastError)
            logLine("warn", { msg: "record cache: filling failed", error: String(e) });
          lastError = String(e);
        },
      )
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
    nudge: tick,
    filledTo: (set, height) =>
      new Promise((done) => {
        waiters.add({ set, height, done });
        wake();
      }),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await cache.close();
    },
  };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What a set's kept file must match: its database's UUID (a set deleted and made again under the
 * same name has another) and its last migration (one may rewrite records).
 */
const stampOf = async (db: DbShape, set: string) => {
  const [row] = await Effect.runPromise(
    db.fields(
      `SELECT (SELECT toString(uuid) FROM system.databases WHERE name = {set:String}), (SELECT max(name) FROM ${set}._migrations)`,
      { set },
      2,
    ),
  );
  return `${row?.[0]}/${row?.[1]}`;
};

/** The addresses of `st`'s verified contracts (stored lowercase, as decode.ts looks them up). */
const verifiedAddresses = async (db: DbShape, st: StoreState) =>
  st.verified === 0
    ? new Set<string>()
    : new Set(
        (
          await Effect.runPromise(
            db.query<{ address: string }>(`SELECT address FROM ${st.db}.verified_contracts FINAL`),
          )
        ).map((r) => r.address),
      );

/** The records of heights `from`..`to` of `set` (each key of a transaction as the lookup index has it). */
const readChunk = async (
  db: DbShape,
  set: string,
  from: number,
  to: number,
): Promise<RecordChunk> => {
  const range = { a: from, b: to };
  const [txs, blocks, lists] = await Promise.all([
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
    listRows(db, set, from, to),
  ]);
  const gzipped: Buffer[] = [];
  for (const [, , , record] of txs) {
    if (gzipped.length % SLICE === 0) await new Promise((r) => setImmediate(r));
    gzipped.push(gzipSync(record!));
  }
  return {
    from,
    to,
    txs: txs.map(
      ([h, idx, keys], i) => [Number(h), Number(idx), keys!.split(" "), gzipped[i]!] as const,
    ),
    blocks: blocks.map(([h, p, record]) => [Number(h), p!, record!] as const),
    lists,
  };
};
