import type { EvmTxRow } from "@explorer/projections";
import { Effect } from "effect";
import type { FunctionFragment } from "ethers";
import type { DbShape } from "../../db.ts";
import { inLookup } from "../../http/lookup-page.ts";
import { Where } from "../../http/where.ts";
import { verifiedInterfaces } from "../../records/decode.ts";
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

/** Etherscan's functionName of each transaction: `name(type arg, …)` from a verified ABI, else "". */
export const functionNames = (txs: readonly EvmTx[]) =>
  Effect.gen(function* () {
    const ifaces = yield* verifiedInterfaces(txs.map((t) => t.to_address).filter((a) => a !== ""));
    return (t: EvmTx) => {
      const iface = ifaces.get(t.to_address);
      if (!iface || t.input.length < 10) return "";
      let f: FunctionFragment | null = null;
      try {
        f = iface.getFunction(t.input.slice(0, 10));
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

/** One of txlist's records: exactly Etherscan's fields, every number decimal text. */
export const txlistRecord = (t: EvmTx, head: number, functionName: string) => {
  const ok = Number(t.status) === 1;
  return {
    blockNumber: String(t.block_number),
    timeStamp: t.ts,
    hash: t.hash,
    nonce: t.nonce,
    blockHash: t.block_hash,
    transactionIndex: String(t.tx_index),
    from: t.from_address,
    to: t.to_address,
    value: t.value,
    gas: t.gas,
    gasPrice: t.gas_price,
    isError: ok ? "0" : "1",
    txreceipt_status: ok ? "1" : "0",
    input: t.input,
    contractAddress: t.contract_address,
    cumulativeGasUsed: t.cumulative_gas_used,
    gasUsed: t.gas_used,
    confirmations: confirmations(t.block_number, head),
    methodId: methodId(t.input),
    functionName,
  };
};
