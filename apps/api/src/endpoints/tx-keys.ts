import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import type { TxHash } from "../http/kinds.ts";
import { evmHashesOf } from "../records/point-reads.ts";

/**
 * The lookup keys (`x:<EVM hash>`) of a transaction named by either of its hashes; one no entry
 * has (`x:`) where it carries no EVM hash, so that the filter then finds nothing.
 */
export const txKeys = (db: DbShape, t: TxHash) =>
  Effect.gen(function* () {
    const hashes = yield* evmHashesOf(db, t);
    return hashes.length > 0 ? hashes.map((h) => `x:${h}`) : ["x:"];
  });
