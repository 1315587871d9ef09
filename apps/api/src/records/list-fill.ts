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
  for (const r of transfers) {
    const t = byHash.get(`${r.block_number}|${r.tx_hash}`);
    for (const c of TX_FIELDS)
      r[`tx_${c}`] = t === undefined ? null : c === "input" ? String(t.input).slice(0, 10) : t[c];
  }
  for (const r of logs) {
    const t = byHash.get(`${r.block_number}|${r.tx_hash}`);
    r.tx_gas_price = t?.gas_price ?? null;
    r.tx_gas_used = t?.gas_used ?? null;
  }
  return { evm, transfers, logs };
};

/**
 * The EVM transactions of kept transfers or logs (their `tx_<field>`s, list-families.ts) by
 * hash, as the store's evm_txs gives them to the same answers; none for a row without.
 */
export const keptTxs = (rows: readonly Row[]) => {
  const out = new Map<string, Row>();
  for (const r of rows) {
    if (r.tx_gas_used === null || r.tx_gas_used === undefined) continue;
    const t: Row = { hash: r.tx_hash };
    for (const [c, kept] of KEPT) if (kept in r) t[c] = r[kept];
    out.set(String(r.tx_hash), t);
  }
  return out;
};
const KEPT = TX_FIELDS.map((c) => [c, `tx_${c}`] as const);
