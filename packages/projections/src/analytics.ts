import type { Json, LightBlock } from "@explorer/raw-block";
import { blockTime, chTime, obj, str } from "./context.ts";
import { txHashesOf } from "./txs.ts";

/** A block's row of `block_stats` (sql/015): what the charts add up by day. */
export interface BlockStatsRow {
  height: number;
  time: string;
  txs: number;
  evm_txs: number;
  /** Decimal strings (rows travel as JSON too). */
  gas_used: string;
  gas_limit: string;
  size: string;
  evm_fee: string;
}

const big = (hex: Json | undefined): bigint => {
  const s = str(hex);
  return s ? BigInt(s) : 0n;
};

/**
 * A block's figures for the analytics tables: its transactions, the EVM block's gas and size, and
 * the fees its EVM transactions paid (each receipt's gasUsed × effectiveGasPrice: the gas not used
 * is refunded, so what the transaction offered is not what it paid).
 */
export const projectAnalytics = (raw: LightBlock): { block_stats: BlockStatsRow[] } => {
  const evm = raw.evm.block;
  return {
    block_stats: [
      {
        height: raw.height,
        time: chTime(blockTime(raw)),
        txs: txHashesOf(raw).length,
        evm_txs: raw.evm.receipts.length,
        gas_used: big(evm?.gasUsed).toString(),
        gas_limit: big(evm?.gasLimit).toString(),
        size: big(evm?.size).toString(),
        evm_fee: raw.evm.receipts
          .reduce((s, r) => s + big(obj(r).gasUsed) * big(obj(r).effectiveGasPrice), 0n)
          .toString(),
      },
    ],
  };
};
