import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { FAMILIES, type Family, type Row, rowsSql } from "./list-families.ts";

/**
 * The rows of heights `from`..`to` of `set` the record cache lists (list-cut.ts), read from the
 * store. A transfer is given its EVM transaction's index (`tx_index`, null if the store has no
 * row of it: a set projected before evm_txs), which the Etherscan fields of a transfer read.
 */
export const listRows = async (
  db: DbShape,
  set: string,
  from: number,
  to: number,
): Promise<Record<Family, Row[]>> => {
  const read = (f: Family) =>
    Effect.runPromise(db.query<Row>(rowsSql(set, FAMILIES[f]), { a: from, b: to }));
  const [evm, transfers, logs] = await Promise.all([read("evm"), read("transfers"), read("logs")]);
  const txIndex = new Map(evm.map((t) => [`${t.block_number}|${t.hash}`, t.tx_index]));
  for (const t of transfers) t.tx_index = txIndex.get(`${t.block_number}|${t.tx_hash}`) ?? null;
  return { evm, transfers, logs };
};
