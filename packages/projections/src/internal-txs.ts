import { hexToBigInt, key, type Packed, type Pos } from "@explorer/raw-block";
import type { BlockInput } from "./block-input.ts";
import { arr, blockTime, chTime, obj, str } from "./context.ts";

/** One frame of a transaction's call tree, as `internal_txs` holds it (sql/017_internal_txs.sql). */
export interface InternalTxRow {
  block_number: number;
  tx_index: number;
  trace_index: number;
  tx_hash: string;
  trace_address: number[];
  type: string;
  from_address: string;
  to_address: string;
  value: string;
  gas: string;
  gas_used: string;
  input_size: number;
  output_size: number;
  error: string;
  time: string;
}

const K = {
  result: key("result"),
  type: key("type"),
  from: key("from"),
  to: key("to"),
  value: key("value"),
  gas: key("gas"),
  gasUsed: key("gasUsed"),
  input: key("input"),
  output: key("output"),
  error: key("error"),
  calls: key("calls"),
};

/** A 0x hex quantity as a decimal string ("0" when absent or not hex). */
const dec = (hex: string | undefined): string => {
  if (!hex || !/^0x[0-9a-fA-F]*$/.test(hex)) return "0";
  return hexToBigInt(hex).toString();
};

/** Bytes of a 0x hex string value (0 when absent). */
const bytesAt = (p: Packed, at: Pos): number => {
  const n = p.stringLength(at);
  return n > 2 ? (n - 2) >> 1 : 0;
};

type Frame = Omit<InternalTxRow, "block_number" | "tx_index" | "tx_hash" | "time">;

/**
 * The frames of a call tree (callTracer's `result`), depth first, read in place: the input and
 * output are counted, never decoded. Every frame is kept, those under a failed one too, as the
 * node gives them (each says its own error).
 */
const framesAt = (p: Packed, at: Pos, path: number[], out: Frame[]): void => {
  if (!p.isMap(at)) return;
  const f: Frame = {
    trace_index: out.length,
    trace_address: path,
    type: "",
    from_address: "",
    to_address: "",
    value: "0",
    gas: "0",
    gas_used: "0",
    input_size: 0,
    output_size: 0,
    error: "",
  };
  out.push(f);
  let calls: Pos[] = [];
  let q = p.first(at);
  for (let n = p.count(at); n > 0; n--) {
    const v = p.end(q);
    if (p.is(q, K.type)) f.type = (p.string(v) ?? "").toLowerCase();
    else if (p.is(q, K.from)) f.from_address = (p.string(v) ?? "").toLowerCase();
    else if (p.is(q, K.to)) f.to_address = (p.string(v) ?? "").toLowerCase();
    else if (p.is(q, K.value)) f.value = dec(p.string(v));
    else if (p.is(q, K.gas)) f.gas = dec(p.string(v));
    else if (p.is(q, K.gasUsed)) f.gas_used = dec(p.string(v));
    else if (p.is(q, K.input)) f.input_size = bytesAt(p, v);
    else if (p.is(q, K.output)) f.output_size = bytesAt(p, v);
    else if (p.is(q, K.error)) f.error = p.string(v) ?? "";
    else if (p.is(q, K.calls)) calls = p.itemsAndEnd(v)[0];
    q = p.end(v);
  }
  calls.forEach((c, i) => {
    framesAt(p, c, [...path, i], out);
  });
};

/**
 * Internal transactions of the block: the call tree of each EVM transaction, from the record's
 * traces (debug_traceBlockByNumber with callTracer, one per transaction in block order). A block
 * recorded from a node without the debug namespace has none, so no rows.
 */
export const projectInternalTxs = (input: BlockInput) => {
  const { raw, packed, traces } = input;
  const time = chTime(blockTime(raw));
  const txs = arr(raw.evm.block?.transactions).map(obj);
  const internal_txs: InternalTxRow[] = [];
  traces.forEach((t, i) => {
    const tx = txs[i];
    const root = packed.field(t, K.result);
    if (!tx || root < 0) return;
    const frames: Frame[] = [];
    framesAt(packed, root, [], frames);
    const tx_hash = str(tx.hash).toLowerCase();
    for (const f of frames)
      internal_txs.push({ block_number: raw.height, tx_index: i, tx_hash, ...f, time });
  });
  return { internal_txs };
};
