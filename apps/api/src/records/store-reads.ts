import { Effect } from "effect";
import { Batcher, perOwner } from "../batch.ts";
import type { DbShape } from "../db.ts";
import { NotFound, StoreFailure } from "../http/errors.ts";
import type { txHash } from "../http/params.ts";
import type { StoredBlock } from "./block.ts";

/**
 * The end of a point read of rows that never change once written (blocks, transactions): a
 * replayed block inserts identical copies until a merge, so one per key is kept (cheaper than
 * FINAL, which merges whatever the read touches); a few granules are read, by one thread.
 */
const onePer = (key: string) => `LIMIT 1 BY ${key} SETTINGS max_threads = 1`;

/** A block's key in `block_records` (sql/014_block_records.sql): its height, zero-padded. */
const blockKey = (h: number) => String(h).padStart(12, "0");

/**
 * Blocks by height, looked up together (see batch.ts): one seek each in the key-value table
 * `block_records`. A height without a row there is read from `blocks` (a second query, only
 * then): an insert into `blocks` that ran while migration 014 filled `block_records` on a live
 * table set can leave one, and a height below the store's first block has none anywhere.
 */
export const blockRows = perOwner(
  (db: DbShape) =>
    new Batcher<number, StoredBlock>(async (hs) => {
      // One thread: 15-17% less of the engine's CPU for 8 or 24 random keys on the 1M-tx bench
      // store (9 runs of 200 queries each way, alternating: medians 1.67 against 1.97 ms, 1.77
      // against 2.12), as for transactions below.
      const rows = await Effect.runPromise(
        db.fields(
          "SELECT key, proposer_cons, record FROM {db}.block_records WHERE key IN {ks:Array(String)} SETTINGS max_threads = 1",
          { ks: hs.map(blockKey) },
          3,
        ),
      );
      const found = byHeight(rows); // keys: zero-padded heights
      const missing = hs.filter((h) => !found.has(h));
      if (missing.length > 0) for (const [h, b] of await blocksAt(db, missing)) found.set(h, b);
      return found;
    }),
);

/** Blocks read from `blocks` by height (see blockRows). */
const blocksAt = async (db: DbShape, hs: number[]) => {
  const rows = await Effect.runPromise(
    db.fields(
      `SELECT height, proposer_cons, record FROM {db}.blocks WHERE height IN {hs:Array(UInt64)} ${onePer("height")}`,
      { hs },
      3,
    ),
  );
  return byHeight(rows);
};

/** Rows of (height, proposer_cons, record) as stored blocks by height. */
const byHeight = (rows: readonly (readonly (string | undefined)[])[]) =>
  new Map<number, StoredBlock>(
    rows.map(([h, proposer_cons, record]) => [
      Number(h),
      { proposer_cons: proposer_cons!, record: record! },
    ]),
  );

/** A transaction hash's key in `tx_hash` (sql/008_tx_hash.sql): `h:<TXHASH>` or `e:<0xhash>`. */
export const txKey = (t: ReturnType<typeof txHash>) =>
  t.kind === "cosmos" ? `h:${t.hash}` : `e:${t.hash}`;

/** A transaction's position, height (12 digits) then idx (7), zero-padded: keys records by it. */
const POSITION = "concat(leftPad(toString(height), 12, '0'), leftPad(toString(idx), 7, '0'))";

/**
 * Transaction records by hash key (txKey), projected ones only, looked up together: the keys'
 * places in `tx_hash` (one seek each in the key-value table), then their records in `txs`. The
 * record cache answers most lookups before this (read-model/make.ts); `tx_records`, which kept
 * the records by place for this read, was dropped (sql/022_drop_tx_records.sql).
 */
export const txRows = perOwner(
  (db: DbShape) =>
    new Batcher<string, string>(async (keys) => {
      const st = await Effect.runPromise(db.state);
      // One thread: 10-16% less of the engine's CPU for 4 or 24 random keys on the 1M-tx bench
      // store (400 queries each way, alternating), the same time to the answer.
      const places = await Effect.runPromise(
        db.fields(
          `SELECT key, height, ${POSITION} AS at FROM {db}.tx_hash WHERE key IN {keys:Array(String)} SETTINGS max_threads = 1`,
          { keys },
          3,
        ),
      );
      const projected = places.filter(([, h]) => Number(h) <= st.height);
      const records =
        projected.length > 0
          ? await txsAt(
              db,
              projected.map(([, , at]) => at!),
            )
          : new Map<string, string>();
      const found = new Map<string, string>();
      for (const [key, , at] of projected) {
        const r = records.get(at!);
        if (r) found.set(key!, r);
      }
      return found;
    }),
);

/**
 * Records of transactions read from `txs` by position, keyed by it: with FINAL, as `/txs` reads
 * them. The heights and indexes narrow the read through the primary key; the positions keep only
 * the pairs asked for.
 */
const txsAt = async (db: DbShape, ats: string[]) => {
  const rows = await Effect.runPromise(
    db.fields(
      `SELECT ${POSITION} AS at, record FROM {db}.txs FINAL WHERE height IN {hs:Array(UInt64)} AND idx IN {is:Array(UInt32)} AND at IN {ats:Array(String)} SETTINGS max_threads = 1`,
      {
        hs: [...new Set(ats.map((at) => Number(at.slice(0, 12))))],
        is: [...new Set(ats.map((at) => Number(at.slice(12))))],
        ats,
      },
      2,
    ),
  );
  return new Map(rows.map(([at, record]) => [at!, record!]));
};

/** A batched lookup's value (undefined when the store has none); a failed read is the store's fault. */
export const lookup = <V>(value: Promise<V | undefined>) =>
  Effect.tryPromise({
    try: () => value,
    catch: (cause) => new StoreFailure({ message: `lookup failed: ${String(cause)}`, cause }),
  });

/** A batched lookup's value, or NotFound. */
export const found = <V>(value: Promise<V | undefined>, what: string) =>
  Effect.flatMap(lookup(value), (v) =>
    v === undefined
      ? Effect.fail(new NotFound({ message: `${what} not found` }))
      : Effect.succeed(v),
  );
