import { Effect } from "effect";
import type { DbShape, StoreState } from "../db.ts";
import { ReadModel } from "../read-model/read-model.ts";

/** Heights per bucket: one number per 256 blocks is kept (40,000 for 10 million blocks). */
export const BUCKET = 256;

/**
 * Where the n-th transaction of the chain (0 = the first) is, to a range of heights, so that a deep
 * page of `/txs` reads the blocks of a bucket or two instead of scanning them all (on 5 million
 * blocks: 4-6 ms of CPU against 42-57 ms, random pages; the scan grows with the chain). For each bucket
 * of BUCKET heights, the transactions before its first block. A block's `txs_before` never goes
 * down with height, so the block that holds position n is in the last bucket whose first block has
 * at most n before it. Buckets never change once their first block is projected (replays write the
 * same counts); the set's later buckets are added as the projector moves.
 */
export class TxPositions {
  /** Bucket numbers with a first block, ascending. */
  private readonly buckets: number[] = [];
  /** Transactions before each bucket's first block (same order). */
  private readonly before: number[] = [];

  /** Adds buckets (bucket number, transactions before its first projected block), ascending. */
  add(rows: readonly { b: number; before: number }[]) {
    for (const r of rows) {
      // A bucket only partly projected last time came then with its first block.
      if (this.buckets.length > 0 && r.b <= this.buckets.at(-1)!) continue;
      this.buckets.push(r.b);
      this.before.push(r.before);
    }
  }

  /** The bucket holding position n: the last whose first block has at most n before it. */
  private bucketOf(n: number): number | undefined {
    let lo = 0;
    let hi = this.buckets.length - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.before[mid]! <= n) {
        found = this.buckets[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Heights that hold every transaction at positions low..high, or undefined if none is known. */
  heights(low: number, high: number): { from: number; to: number } | undefined {
    const a = this.bucketOf(low);
    const b = this.bucketOf(high);
    if (a === undefined || b === undefined) return undefined;
    return { from: a * BUCKET, to: (b + 1) * BUCKET - 1 };
  }
}

/**
 * Reads the heights that hold positions low..high in a state's set, keeping the set's buckets (one
 * reader per read model; started again for a new table set, a re-index): the buckets of blocks
 * projected since the last call are read first (one small aggregate over those blocks).
 */
export const txPositionsReader = (db: DbShape) => {
  let loaded: { db: string; positions: TxPositions; height: number } | undefined;
  return (st: StoreState, low: number, high: number) =>
    Effect.gen(function* () {
      if (loaded?.db !== st.db) loaded = { db: st.db, positions: new TxPositions(), height: 0 };
      const l = loaded;
      if (l.height < st.height) {
        const rows = yield* db.query<{ b: string; before: string }>(
          `SELECT toString(intDiv(height, ${BUCKET})) AS b, toString(min(txs_before)) AS before FROM {db}.blocks WHERE height > {from:UInt64} AND height <= {to:UInt64} GROUP BY b ORDER BY toUInt64(b)`,
          { from: l.height, to: st.height },
        );
        l.positions.add(rows.map((r) => ({ b: Number(r.b), before: Number(r.before) })));
        l.height = st.height;
      }
      return l.positions.heights(low, high);
    });
};

/** The heights that hold positions low..high in `st`'s set, as the read model keeps them. */
export const txPositionHeights = (_db: DbShape, st: StoreState, low: number, high: number) =>
  Effect.gen(function* () {
    return yield* (yield* ReadModel).txPositions(st, low, high);
  });
