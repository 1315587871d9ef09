import type { Json, JsonObject } from "@explorer/raw-block";
import { getCreateAddress, keccak256 } from "ethers";
import { NodeUnavailableError } from "../node/errors.ts";
import { IndexLagError } from "../node/evm.ts";

/**
 * The receipts the node gives, or, when its transaction index lacks the block, the same receipts
 * built from the block's results (`parts`: its block results and EVM block), told to `onNote`. If
 * they cannot be built, the index lag stands (retried).
 */
export const receiptsOf = async (
  fromNode: () => Promise<JsonObject[]>,
  parts: () => Promise<readonly [JsonObject, JsonObject | null]>,
  onNote?: (message: string) => void,
): Promise<JsonObject[]> => {
  try {
    return await fromNode();
  } catch (e) {
    if (!(e instanceof IndexLagError)) throw e;
    const [blockResults, evmBlock] = await parts();
    let built: JsonObject[];
    try {
      built = receiptsFromResults(blockResults, evmBlock);
    } catch (why) {
      throw new NodeUnavailableError(
        `${e.message}; nor could its receipts be built from the block's results (${(why as Error).message})`,
      );
    }
    onNote?.(
      `${e.message}; its receipts were built from the block's results instead (CometBFT's indexer can miss the last block before a node stops)`,
    );
    return built;
  }
};

/**
 * A block's EVM receipts built from what the node gives without its transaction index: the
 * CometBFT block results (each transaction's `ethereum_tx` and `tx_log` events) and the EVM block
 * with its transactions. The node's eth_getBlockReceipts reads the index to find each transaction,
 * then builds the receipt from the same events (cosmos/evm v0.3.2 rpc/backend/blocks.go
 * formatTxReceipt, rpc/types/events.go ParseTxResult); this does that without the index, so a
 * height the index lacks (CometBFT's indexer can miss the last block before a node stops) still
 * gets the node's receipts. Keys in the order the node's JSON has them. Throws when the events do
 * not say what a receipt needs.
 */
export const receiptsFromResults = (
  blockResults: JsonObject,
  evmBlock: JsonObject | null,
): JsonObject[] => {
  const txs = list(evmBlock?.transactions);
  const results = list(blockResults.txs_results);
  if (evmBlock === null && results.some((r) => list(r.events).some(isEthereumTx)))
    throw new Error("the block has EVM transactions, but no EVM block came with it");
  if (txs.length === 0) return [];
  const baseFee = evmBlock?.baseFeePerGas;
  const gasLimits = new Map(
    txs.map((t) => [text(t.hash).toLowerCase(), BigInt(text(t.gas) || "0")]),
  );
  const where = locate(results, gasLimits);
  return txs.map((tx) => {
    const hash = text(tx.hash).toLowerCase();
    const at = where.get(hash);
    if (!at) throw new Error(`no ethereum_tx event names ${hash}`);
    const before = results
      .slice(0, at.txIndex)
      .reduce((sum, r) => sum + BigInt(text(r.gas_used) || "0"), 0n);
    const parsed = at.parsed[at.msgIndex]!;
    const cumulative = at.parsed
      .slice(0, at.msgIndex + 1)
      .reduce((sum, p) => sum + p.gasUsed, before);
    const logs = logsOf(list(results[at.txIndex]!.events), at.msgIndex);
    const from = text(tx.from).toLowerCase();
    const to = tx.to === null || tx.to === undefined ? null : text(tx.to).toLowerCase();
    return {
      blockHash: text(evmBlock?.hash),
      blockNumber: text(evmBlock?.number),
      contractAddress:
        to === null
          ? getCreateAddress({ from, nonce: BigInt(text(tx.nonce)) }).toLowerCase()
          : null,
      cumulativeGasUsed: qty(cumulative),
      effectiveGasPrice: qty(effectiveGasPrice(tx, baseFee)),
      from,
      gasUsed: qty(parsed.gasUsed),
      logs,
      logsBloom: bloom(logs),
      status: parsed.failed ? "0x0" : "0x1",
      to,
      transactionHash: hash,
      transactionIndex: qty(BigInt(parsed.ethTxIndex ?? Number(text(tx.transactionIndex)))),
      type: qty(BigInt(text(tx.type) || "0x0")),
    };
  });
};

interface ParsedTx {
  hash: string;
  ethTxIndex?: number;
  gasUsed: bigint;
  failed: boolean;
}

/**
 * Each EVM transaction's place: the cosmos transaction holding it and its message index there,
 * with every EVM message of that transaction parsed from its `ethereum_tx` events. Events come in
 * two formats: one event per message with all attributes, or a short event (hash, index) per
 * message first and a full one per executed message after; the full one wins.
 */
const locate = (results: JsonObject[], gasLimits: ReadonlyMap<string, bigint>) => {
  const where = new Map<string, { txIndex: number; msgIndex: number; parsed: ParsedTx[] }>();
  results.forEach((result, txIndex) => {
    const events = list(result.events).filter(isEthereumTx);
    if (events.length === 0) return;
    const parsed: ParsedTx[] = [];
    const full = list(events[0]!.attributes).length > 2;
    let executed = -1;
    for (const e of events) {
      const attrs = list(e.attributes);
      const tx = parseAttributes(attrs);
      if (attrs.length === 2 || full) parsed.push(tx);
      else parsed[++executed] = tx;
    }
    // A single message is charged the cosmos transaction's gas; a transaction refused for the
    // block's gas limit (code ≠ 0 yet listed) failed and was charged its gas limit.
    if (parsed.length === 1) parsed[0]!.gasUsed = BigInt(text(result.gas_used) || "0");
    if (Number(result.code ?? 0) !== 0)
      for (const p of parsed) {
        p.failed = true;
        p.gasUsed = gasLimits.get(p.hash) ?? p.gasUsed;
      }
    parsed.forEach((p, msgIndex) => {
      // The node's search takes the oldest transaction holding a hash.
      if (!where.has(p.hash)) where.set(p.hash, { txIndex, msgIndex, parsed });
    });
  });
  return where;
};

const parseAttributes = (attrs: JsonObject[]): ParsedTx => {
  const tx: ParsedTx = { hash: "", gasUsed: 0n, failed: false };
  for (const a of attrs) {
    const value = text(a.value);
    if (a.key === "ethereumTxHash") tx.hash = value.toLowerCase();
    else if (a.key === "txIndex") tx.ethTxIndex = Number(value);
    else if (a.key === "txGasUsed") tx.gasUsed = BigInt(value);
    else if (a.key === "ethereumTxFailed") tx.failed = value.length > 0;
  }
  return tx;
};

/**
 * The logs of the msgIndex-th EVM message: its `tx_log` event's `txLog` attributes, as geth writes
 * logs (addresses and hashes padded or cut to their length, as go-ethereum's HexToAddress and
 * HexToHash do). Logs that do not parse give none, as the node answers then.
 */
const logsOf = (events: JsonObject[], msgIndex: number): JsonObject[] => {
  const event = events.filter((e) => e.type === "tx_log")[msgIndex];
  if (!event) return [];
  try {
    return list(event.attributes)
      .filter((a) => a.key === "txLog")
      .map((a) => {
        const l = JSON.parse(text(a.value)) as JsonObject;
        return {
          address: fixedHex(l.address, 20),
          topics: (l.topics as Json[] | null | undefined)?.map((t) => fixedHex(t, 32)) ?? [],
          data: `0x${Buffer.from(text(l.data), "base64").toString("hex")}`,
          blockNumber: qty(BigInt(Number(l.blockNumber ?? 0))),
          transactionHash: fixedHex(l.transactionHash, 32),
          transactionIndex: qty(BigInt(Number(l.transactionIndex ?? 0))),
          blockHash: fixedHex(l.blockHash, 32),
          logIndex: qty(BigInt(Number(l.logIndex ?? 0))),
          removed: l.removed === true,
        };
      });
  } catch {
    return [];
  }
};

/** Lowercase hex of exactly `bytes` bytes: left-padded with zeros or cut to its last bytes. */
const fixedHex = (v: Json | undefined, bytes: number): string =>
  `0x${text(v)
    .replace(/^0x/i, "")
    .toLowerCase()
    .padStart(bytes * 2, "0")
    .slice(-bytes * 2)}`;

const isEthereumTx = (e: JsonObject) => e.type === "ethereum_tx";

/** A dynamic-fee transaction pays min(tip + base fee, fee cap); any other its gas price. */
const effectiveGasPrice = (tx: JsonObject, baseFee: Json | undefined): bigint => {
  if (text(tx.type) === "0x2") {
    const cap = BigInt(text(tx.maxFeePerGas));
    if (baseFee === null || baseFee === undefined) return cap;
    const paid = BigInt(text(tx.maxPriorityFeePerGas)) + BigInt(text(baseFee));
    return paid < cap ? paid : cap;
  }
  return BigInt(text(tx.gasPrice));
};

/** The 2048-bit bloom filter of the logs' addresses and topics (the Yellow Paper's M3:2048). */
const bloom = (logs: JsonObject[]): string => {
  const bits = new Uint8Array(256);
  const add = (hex: string) => {
    const h = Buffer.from(keccak256(hex).slice(2), "hex");
    for (let i = 0; i < 6; i += 2) {
      const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
      bits[255 - (bit >> 3)]! |= 1 << (bit & 7);
    }
  };
  for (const l of logs) {
    add(text(l.address));
    for (const t of l.topics as string[]) add(t);
  }
  return `0x${Buffer.from(bits).toString("hex")}`;
};

const qty = (n: bigint) => `0x${n.toString(16)}`;
const text = (v: Json | undefined): string =>
  typeof v === "string" ? v : v == null ? "" : String(v);
const list = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? (v as JsonObject[]) : []);
