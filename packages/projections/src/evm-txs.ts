import type { LightBlock } from "@explorer/raw-block";
import { arr, blockTime, chTime, hexToDec, obj, str } from "./context.ts";

/** One EVM transaction with its receipt's fields, as `evm_txs` holds it (sql/019_evm_txs.sql). */
export interface EvmTxRow {
  block_number: number;
  tx_index: number;
  hash: string;
  block_hash: string;
  time: string;
  from_address: string;
  to_address: string;
  contract_address: string;
  nonce: string;
  value: string;
  gas: string;
  gas_price: string;
  gas_used: string;
  cumulative_gas_used: string;
  status: number;
  input: string;
}

const lower = (v: unknown) => str(v as string).toLowerCase();

/**
 * The block's EVM transactions, each with its receipt (matched by hash): the fields an explorer
 * lists for a transaction, so that no list asks the node for them. A transaction without a
 * receipt in the record (none is expected) is left out.
 */
export const projectEvmTxs = (raw: LightBlock) => {
  const time = chTime(blockTime(raw));
  const receipts = new Map(
    raw.evm.receipts.map(obj).map((r) => [lower(r.transactionHash), r] as const),
  );
  const evm_txs: EvmTxRow[] = arr(raw.evm.block?.transactions)
    .map(obj)
    .flatMap((tx) => {
      const hash = lower(tx.hash);
      const r = receipts.get(hash);
      if (!r) return [];
      return [
        {
          block_number: raw.height,
          tx_index: Number(hexToDec(r.transactionIndex ?? tx.transactionIndex)),
          hash,
          block_hash: lower(r.blockHash ?? raw.evm.block?.hash),
          time,
          from_address: lower(tx.from),
          to_address: lower(tx.to),
          contract_address: lower(r.contractAddress),
          nonce: hexToDec(tx.nonce),
          value: hexToDec(tx.value),
          gas: hexToDec(tx.gas),
          gas_price: hexToDec(r.effectiveGasPrice ?? tx.gasPrice),
          gas_used: hexToDec(r.gasUsed),
          cumulative_gas_used: hexToDec(r.cumulativeGasUsed),
          status: str(r.status) === "0x1" ? 1 : 0,
          input: str(tx.input) || "0x",
        },
      ];
    });
  return { evm_txs };
};
