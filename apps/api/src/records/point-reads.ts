import { Effect } from "effect";
import { Batcher, perOwner } from "../batch.ts";
import type { DbShape } from "../db.ts";
import { NotFound, StoreFailure } from "../http/errors.ts";
import type { txHash } from "../http/params.ts";
import type { StoredBlock } from "./block.ts";
import { decodeTxTexts } from "./decode.ts";

/**
 * The end of a point read of rows that never change once written (blocks, transactions): a
 * replayed block inserts identical copies until a merge, so one per key is kept (cheaper than
 * FINAL, which merges whatever the read touches); a few granules are read, by one thread.
 */
const onePer = (key: string) => `LIMIT 1 BY ${key} SETTINGS max_threads = 1`;

/** Blocks by height, looked up together (see batch.ts). */
export const blockRows = perOwner(
  (db: DbShape) =>
    new Batcher<number, StoredBlock>(async (hs) => {
      const rows = await Effect.runPromise(
        db.fields(
          `SELECT height, proposer_cons, record FROM {db}.blocks WHERE height IN {hs:Array(UInt64)} ${onePer("height")}`,
          { hs },
          3,
        ),
      );
      return new Map(
        rows.map(([h, proposer_cons, record]) => [
          Number(h),
          { proposer_cons: proposer_cons!, record: record! },
        ]),
      );
    }),
);

/** A transaction hash's key in `tx_hash` (sql/008_tx_hash.sql): `h:<TXHASH>` or `e:<0xhash>`. */
export const txKey = (t: ReturnType<typeof txHash>) =>
  t.kind === "cosmos" ? `h:${t.hash}` : `e:${t.hash}`;

/**
 * Transaction records by hash key (txKey), projected ones only, looked up together: the keys'
 * positions in `tx_hash` first, then those rows of `txs` (two point reads, cheaper than a join).
 */
export const txRows = perOwner(
  (db: DbShape) =>
    new Batcher<string, string>(async (keys) => {
      const st = await Effect.runPromise(db.state);
      const at = await Effect.runPromise(
        db.query<{ key: string; h: string; idx: number }>(
          "SELECT key, toString(height) AS h, idx FROM {db}.tx_hash WHERE key IN {keys:Array(String)}",
          { keys },
        ),
      );
      const seen = at.filter((r) => Number(r.h) <= st.height);
      if (seen.length === 0) return new Map();
      // (height, idx) as one number: idx < 2^20 per block, heights < 2^33 stay exact
      const pos = (height: number, idx: number) => height * 1_048_576 + idx;
      const rows = await Effect.runPromise(
        db.fields(
          `SELECT height, idx, record FROM {db}.txs WHERE (height, idx) IN arrayZip({hs:Array(UInt64)}, {is:Array(UInt32)}) ${onePer("height, idx")}`,
          { hs: seen.map((r) => Number(r.h)), is: seen.map((r) => r.idx) },
          3,
        ),
      );
      const record = new Map(rows.map(([h, idx, text]) => [pos(Number(h), Number(idx)), text!]));
      const found = new Map<string, string>();
      for (const r of seen) {
        const text = record.get(pos(Number(r.h), r.idx));
        if (text !== undefined) found.set(r.key, text);
      }
      return found;
    }),
);

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

/** The transaction with this hash as the API answers it (calls decoded), or undefined. */
export const txByHash = (db: DbShape, t: ReturnType<typeof txHash>) =>
  Effect.gen(function* () {
    const record = yield* lookup(txRows(db).load(txKey(t)));
    if (record === undefined) return undefined;
    const [tx] = yield* decodeTxTexts([record]);
    return tx;
  });
