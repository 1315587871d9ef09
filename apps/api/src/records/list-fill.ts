import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { FAMILIES, type Family, type Row, rowsSql, TX_FIELDS } from "./list-families.ts";

/**
 * The rows of heights `from`..`to` of `set` the record cache lists (list-cut.ts), read from the
 * store. A transfer or a log is given the fields of its EVM transaction that Etherscan's answers
 * show (`tx_<field>`, null if the store has no row of it: a set projected before evm_txs), so a
 * page of them reads no transaction.
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
  const byHash = new Map(evm.map((t) => [`${t.block_number}|${t.hash}`, t]));
  const txOf = (r: Row) => byHash.get(`${r.block_number}|${r.tx_hash}`);
  return {
    evm,
    transfers: withTxFields("transfers", transfers, txOf),
    logs: withTxFields("logs", logs, txOf),
  };
};

/**
 * Gives transfers or logs the fields of their EVM transaction (`txOf`) that Etherscan's answers
 * show, as the family keeps them (`tx_<field>`, list-families.ts; null without one).
 */
export const withTxFields = <R extends Row>(
  family: "transfers" | "logs",
  rows: R[],
  txOf: (row: R) => Row | undefined,
): R[] => {
  for (const r of rows) {
    const t = txOf(r);
    if (family === "logs") {
      (r as Row).tx_gas_price = t?.gas_price ?? null;
      (r as Row).tx_gas_used = t?.gas_used ?? null;
    } else
      for (const c of TX_FIELDS)
        (r as Row)[`tx_${c}`] =
          t === undefined ? null : c === "input" ? String(t.input).slice(0, 10) : t[c];
  }
  return rows;
};
