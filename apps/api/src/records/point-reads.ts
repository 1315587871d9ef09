import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import type { txHash } from "../http/params.ts";
import { ReadModel } from "../read-model/read-model.ts";
import { decodeTxTexts } from "./decode.ts";
import { txKey } from "./store-reads.ts";

export { found, lookup, txKey } from "./store-reads.ts";

// Point reads as handlers ask them: through the read model, which answers from the records it
// keeps or from the store. (`db` is the store the handler reads; the read model was made over it.)

/** A projected transaction's record by hash key (txKey), or undefined. */
const txRecord = (key: string) =>
  Effect.gen(function* () {
    return yield* (yield* ReadModel).txRecord(key);
  });

/** A projected block by height (NotFound if the store has none). */
export const blockRow = (_db: DbShape, h: number) =>
  Effect.gen(function* () {
    return yield* (yield* ReadModel).block(h);
  });

/**
 * The EVM hashes a transaction hash names: an EVM hash itself; a Cosmos hash, those its projected
 * transaction carries (none for a Cosmos-only transaction or one not projected), so that a filter
 * by the transaction takes either of its hashes.
 */
export const evmHashesOf = (_db: DbShape, t: ReturnType<typeof txHash>) =>
  t.kind === "evm"
    ? Effect.succeed([t.hash])
    : Effect.map(txRecord(txKey(t)), (record) =>
        record === undefined
          ? []
          : ((JSON.parse(record) as { evm_txhashes?: string[] }).evm_txhashes ?? []).map((h) =>
              h.toLowerCase(),
            ),
      );

/** The transaction with this hash as the API answers it (calls decoded), or undefined. */
export const txByHash = (_db: DbShape, t: ReturnType<typeof txHash>) =>
  Effect.gen(function* () {
    const record = yield* txRecord(txKey(t));
    if (record === undefined) return undefined;
    const [tx] = yield* decodeTxTexts([record]);
    return tx;
  });
