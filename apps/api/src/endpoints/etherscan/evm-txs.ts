import type { EvmTxRow } from "@explorer/projections";
import { Effect } from "effect";
import type { FunctionFragment } from "ethers";
import type { DbShape } from "../../db.ts";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { verifiedInterfaces } from "../../records/decode.ts";
import type { Row } from "../../records/list-families.ts";
import { withTxFields } from "../../records/list-fill.ts";
import { NUM } from "../../records/packed-row.ts";
import {
  blockHashAt,
  keysOf,
  methodIdAt,
  numberAt,
  placesOf,
  type WriteRecord,
} from "./packed-records.ts";
import { lookupPage, type Paging } from "./paging.ts";

/**
 * A row of `evm_txs` (sql/019_evm_txs.sql) as the queries below give it: numbers as text, the
 * block time as Unix seconds (the key's columns as the store gives them: not renamed, or a WHERE
 * would read the renamed ones).
 */
export type EvmTx = Omit<EvmTxRow, "block_number" | "tx_index" | "time"> & {
  block_number: string | number;
  tx_index: string | number;
  ts: string;
};

const COLUMNS = `block_number, tx_index, hash, block_hash,
  toString(toUnixTimestamp(time)) AS ts, from_address, to_address, contract_address, toString(nonce) AS nonce,
  toString(value) AS value, toString(gas) AS gas, toString(gas_price) AS gas_price, toString(gas_used) AS gas_used,
  toString(cumulative_gas_used) AS cumulative_gas_used, status, input`;

/**
 * One page of an account's EVM transactions (it sent, received, or created a contract in), read
 * from the store. The page is cut from the narrow index `evm_tx_lookup` (its own order, so at most
 * the 10,000-record window of positions is read), then just those rows are read by their key.
 */
export const evmTxPage = (db: DbShape, account: string, p: Paging) => {
  const d = p.desc ? "DESC" : "ASC";
  const w = new Where()
    .and((b) => `block_number BETWEEN ${b("UInt64", p.startblock)} AND ${b("UInt64", p.endblock)}`)
    .and(
      inLookup({
        columns: ["block_number", "tx_index"],
        table: "{db}.evm_tx_lookup",
        keys: [`a:${account}`],
        page: lookupPage(p, "block_number"),
      }),
    );
  return db.query<EvmTx>(
    `SELECT ${COLUMNS} FROM {db}.evm_txs ${w.sql}
      ORDER BY block_number ${d}, tx_index ${d} LIMIT 1 BY block_number, tx_index`,
    w.params,
  );
};

/** EVM transactions by hash, at the heights given (a list's rows name both): a map by hash. */
export const evmTxsByHash = (db: DbShape, at: readonly { height: number; hash: string }[]) =>
  Effect.gen(function* () {
    if (at.length === 0) return new Map<string, EvmTx>();
    const rows = yield* db.query<EvmTx>(
      `SELECT ${COLUMNS} FROM {db}.evm_txs
        WHERE block_number IN {hs:Array(UInt64)} AND hash IN {xs:Array(String)} LIMIT 1 BY hash`,
      { hs: [...new Set(at.map((a) => a.height))], xs: [...new Set(at.map((a) => a.hash))] },
    );
    return new Map(rows.map((r) => [r.hash, r]));
  });

/**
 * A page of transfers or logs read from the store by `sql`, with the fields of their EVM
 * transactions that the records kept beside the store hold too (list-fill.ts's withTxFields).
 */
export const storeRows = (
  db: DbShape,
  family: "transfers" | "logs",
  sql: string,
  params: Record<string, unknown>,
) =>
  Effect.gen(function* () {
    const rows = yield* db.query<Row>(sql, params);
    const txs = yield* evmTxsByHash(
      db,
      rows.map((r) => ({ height: Number(r.block_number), hash: String(r.tx_hash) })),
    );
    return withTxFields(family, rows, (r) => txs.get(String(r.tx_hash)));
  });

/**
 * Etherscan's functionName of a call to one of `to` (recipients): `name(type arg, …)` from a
 * verified ABI, by recipient and selector (the call data's first 4 bytes, 0x hex); undefined when
 * none of them is verified (every name "").
 */
export const functionNames = (to: readonly string[]) =>
  Effect.gen(function* () {
    const ifaces = yield* verifiedInterfaces(to.filter((a) => a !== ""));
    if (ifaces.size === 0) return undefined;
    return (to: string, selector: string) => {
      const iface = ifaces.get(to);
      if (!iface || selector.length < 10) return "";
      let f: FunctionFragment | null = null;
      try {
        f = iface.getFunction(selector);
      } catch {
        return "";
      }
      return f ? `${f.name}(${f.inputs.map((p) => `${p.type} ${p.name}`.trim()).join(", ")})` : "";
    };
  });

/** Etherscan's methodId: the call data's first four bytes, "0x" when it has none. */
export const methodId = (input: string) => (input.length >= 10 ? input.slice(0, 10) : "0x");

/** Confirmations of a record at `height` with the chain at `head`. */
export const confirmations = (height: string | number, head: number) =>
  String(Math.max(0, head - Number(height) + 1));

const E = placesOf("evm");
const K = keysOf([
  "blockNumber",
  "timeStamp",
  "hash",
  "nonce",
  "blockHash",
  "transactionIndex",
  "from",
  "to",
  "value",
  "gas",
  "gasPrice",
  "isError",
  "txreceipt_status",
  "input",
  "contractAddress",
  "cumulativeGasUsed",
  "gasUsed",
  "confirmations",
  "methodId",
  "functionName",
]);

/**
 * txlist's records: exactly Etherscan's fields, every number decimal text, the chain at `head`;
 * `names`: functionName by recipient and selector (functionNames; undefined: every one "").
 */
export const txlistRecord =
  (head: number, names: ((to: string, selector: string) => string) | undefined): WriteRecord =>
  (w, r, hash) => {
    const ok = r.kind[E.status!] === NUM && r.num[E.status!] === 1;
    w.raw(K.blockNumber).field(r, E.block_number!);
    w.raw(K.timeStamp).field(r, E.ts!);
    w.raw(K.hash).field(r, E.hash!);
    w.raw(K.nonce).field(r, E.nonce!);
    w.raw(K.blockHash);
    blockHashAt(w, r, E.block_hash!, hash);
    w.raw(K.transactionIndex).field(r, E.tx_index!);
    w.raw(K.from).field(r, E.from_address!);
    w.raw(K.to).field(r, E.to_address!);
    w.raw(K.value).field(r, E.value!);
    w.raw(K.gas).field(r, E.gas!);
    w.raw(K.gasPrice).field(r, E.gas_price!);
    w.raw(K.isError).quoted(ok ? "0" : "1");
    w.raw(K.txreceipt_status).quoted(ok ? "1" : "0");
    w.raw(K.input).field(r, E.input!);
    w.raw(K.contractAddress).field(r, E.contract_address!);
    w.raw(K.cumulativeGasUsed).field(r, E.cumulative_gas_used!);
    w.raw(K.gasUsed).field(r, E.gas_used!);
    w.raw(K.confirmations).quoted(confirmations(numberAt(r, E.block_number!), head));
    w.raw(K.methodId);
    methodIdAt(w, r, E.input!);
    w.raw(K.functionName);
    if (names) w.value(names(r.text(E.to_address!), methodId(r.text(E.input!))));
    else w.quoted("");
    w.byte(0x7d);
  };
