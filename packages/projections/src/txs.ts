import { hash } from "node:crypto";
import { JsonOut, type LightBlock, type Packed } from "@explorer/raw-block";
import { receiptParties } from "./account-scan.ts";
import { activeIn, signersOf } from "./account-stats.ts";
import type { BlockInput } from "./block-input.ts";
import { arr, blockTime, chTime, hexToDec, obj, type ProjectionContext, str } from "./context.ts";
import {
  type BlockContext,
  type Event,
  isText,
  KEYS,
  strAt,
  TxParts,
  writeStr,
} from "./tx-parts.ts";
import { feeOf, type TxStatsRow } from "./tx-stats.ts";

export interface TxRow {
  height: number;
  idx: number;
  txhash: string;
  time: string;
  code: number;
  is_evm: number;
  evm_hashes: string[];
  message_types: string[];
  addresses: string[];
  /** The accounts active in it (account-stats.ts: its signers, its EVM senders); not a column. */
  active: string[];
  /** The SPEC Transaction record, as UTF-8 JSON text. */
  record: Uint8Array;
}

/**
 * CometBFT tx hash: sha256 of the tx bytes, uppercase hex. `hash`, not a Hash object: 1.5 against
 * 1.9 µs for a 900-byte tx.
 */
export const txHashOf = (base64: string): string =>
  hash("sha256", Buffer.from(base64, "base64"), "hex").toUpperCase();

const hashesOf = new WeakMap<LightBlock, string[]>();
/** The CometBFT hashes of a block's txs, in order (computed once per RawBlock). */
export const txHashesOf = (raw: LightBlock): string[] => {
  let hashes = hashesOf.get(raw);
  if (!hashes) {
    hashes = arr(obj(obj(raw.comet.block.block).data).txs).map((t) => txHashOf(str(t)));
    hashesOf.set(raw, hashes);
  }
  return hashes;
};

/**
 * The events of one transaction grouped by message, as the SPEC's `logs`: only events that
 * carry a `msg_index` attribute, that attribute left out, each attribute as its key and value.
 * Groups in msg_index order, events in block order within each.
 */
const writeLogs = (p: Packed, events: readonly Event[], out: JsonOut): void => {
  const byMsg = new Map<number, Event[]>();
  for (const e of events) {
    const index = e.attributes.find((a) => isText(p, a.key, KEYS.msgIndex));
    if (index === undefined) continue;
    const i = Number(strAt(p, index.value));
    const list = byMsg.get(i) ?? [];
    list.push(e);
    byMsg.set(i, list);
  }
  out.byte(0x5b);
  const groups = [...byMsg.entries()].sort(([a], [b]) => a - b);
  groups.forEach(([msgIndex, list], g) => {
    if (g > 0) out.byte(0x2c);
    out.ascii('{"msg_index":');
    out.value(msgIndex);
    out.ascii(',"events":[');
    list.forEach((e, j) => {
      if (j > 0) out.byte(0x2c);
      out.ascii('{"type":');
      writeStr(p, e.type, out);
      out.ascii(',"attributes":[');
      let first = true;
      for (const a of e.attributes) {
        if (isText(p, a.key, KEYS.msgIndex)) continue;
        if (!first) out.byte(0x2c);
        first = false;
        out.ascii('{"key":');
        writeStr(p, a.key, out);
        out.ascii(',"value":');
        writeStr(p, a.value, out);
        out.byte(0x7d);
      }
      out.ascii("]}");
    });
    out.ascii("]}");
  });
  out.byte(0x5d);
};

/** The reason a failed EVM tx reverted ("execution reverted"), from its ethereum_tx event; undefined if none. */
const vmErrorOf = (p: Packed, events: readonly Event[]): string | undefined => {
  for (const e of events) {
    if (!isText(p, e.type, KEYS.ethereumTx)) continue;
    for (const a of e.attributes) if (isText(p, a.key, KEYS.failed)) return strAt(p, a.value);
  }
  return undefined;
};

/**
 * One transaction's row, its record (the SPEC Transaction) written to `out` as JSON text straight
 * from the record's MessagePack: the node's body, fee, signatures and events are copied, not parsed.
 */
const projectTx = (
  b: BlockContext,
  parts: TxParts,
  idx: number,
  txhash: string,
  out: JsonOut,
): Omit<TxRow, "record"> => {
  const { p } = b;
  const { evmHashes, events, result: r, scan } = parts;
  for (const h of evmHashes) {
    const t = b.evmTxs.get(h);
    if (t) scan.value({ from: t.from ?? null, to: t.to ?? null });
  }
  for (const h of evmHashes) scan.value(receiptParties(b.receipts.get(h)));
  const addresses = [...scan.out].sort();
  const isEvm = evmHashes.length > 0;

  const vmError = vmErrorOf(p, events);
  // The SPEC: consensus code 0 is receipt status 1 and code 1 is status 0. The node gives a
  // reverted EVM tx code 0 (the failure is in its ethereum_tx event), so the record says 1,
  // in cosmos/evm's codespace.
  const nodeCode = Number(r.code < 0 ? 0 : (p.value(r.code) ?? 0));
  const code = nodeCode || (vmError !== undefined ? 1 : 0);
  // The record has no `log`: a failed tx whose `info` is empty carries its reason there (the
  // node's log, or the VM error), so that an explorer can say why it failed.
  const reason = nodeCode ? strAt(p, r.log) : (vmError ?? "");

  out.ascii(`{"txhash":"${txhash}","addresses":`);
  out.strings(addresses);
  out.ascii(',"auth_info":');
  out.append(parts.authInfo);
  out.ascii(',"body":');
  out.append(parts.body);
  out.ascii(',"code":');
  out.value(code);
  out.ascii(',"codespace":');
  out.quoted(strAt(p, r.codespace) || (code && !nodeCode ? "evm" : ""));
  out.ascii(',"evm_txhashes":');
  out.strings(evmHashes);
  out.ascii(',"gas_used":');
  writeStr(p, r.gasUsed, out);
  out.ascii(',"gas_wanted":');
  writeStr(p, r.gasWanted, out);
  // as JSON.stringify wrote the record's object: no height, no `height` (undefined is left out)
  if (b.height !== undefined) {
    out.ascii(',"height":');
    out.value(b.height);
  }
  out.ascii(',"info":');
  out.quoted(strAt(p, r.info) || reason);
  out.ascii(`,"isEVM":${isEvm},"logs":`);
  writeLogs(p, events, out);
  out.ascii(',"signatures":');
  out.append(parts.signatures);
  out.ascii(`,"timestamp":"${b.time}","xds":[]}`);
  return {
    height: b.height,
    idx,
    txhash,
    time: chTime(b.time),
    code,
    is_evm: isEvm ? 1 : 0,
    evm_hashes: evmHashes,
    message_types: [...new Set(parts.typeUrls)],
    addresses,
    active: activeIn(
      signersOf(p, events),
      evmHashes.map((h) => str(b.evmTxs.get(h)?.from)),
      b.prefix,
    ),
  };
};

/** A block's messages of one type (`block_messages`, sql/025). */
export interface BlockMessagesRow {
  height: number;
  type: string;
  messages: number;
}

/** The messages of each type URL among `typeUrls` (every message of a block's bodies), by type. */
export const messagesByType = (height: number, typeUrls: readonly string[]): BlockMessagesRow[] => {
  const n = new Map<string, number>();
  for (const t of typeUrls) n.set(t, (n.get(t) ?? 0) + 1);
  return [...n].map(([type, messages]) => ({ height, type, messages }));
};

export const projectTxs = (
  input: BlockInput,
  ctx: ProjectionContext,
): { txs: TxRow[]; tx_stats: TxStatsRow[]; block_messages: BlockMessagesRow[] } => {
  const { raw, packed: p } = input;
  const hashes = txHashesOf(raw);
  const { results, txs: nodes } = input;
  const b: BlockContext = {
    p,
    prefix: ctx.prefix,
    evmTxs: new Map(
      arr(raw.evm.block?.transactions).map((t) => [str(obj(t).hash).toLowerCase(), obj(t)]),
    ),
    receipts: new Map(
      raw.evm.receipts.map((r) => [str(obj(r).transactionHash).toLowerCase(), obj(r)]),
    ),
    baseFee: hexToDec(raw.evm.block?.baseFeePerGas),
    height: raw.height,
    time: blockTime(raw),
  };
  const out = new JsonOut();
  const parts = new TxParts(b);
  const spans: number[] = [0];
  const typeUrls: string[] = [];
  const stats: TxStatsRow[] = [];
  const rows = hashes.map((txhash, idx) => {
    parts.read(nodes[idx] ?? -1, results[idx] ?? -1);
    typeUrls.push(...parts.typeUrls);
    const row = projectTx(b, parts, idx, txhash, out);
    spans.push(out.length);
    const fee = feeOf(p, parts.authInfoAt);
    stats.push({
      height: row.height,
      idx,
      time: row.time,
      code: row.code,
      is_evm: row.is_evm,
      // the record's body.messages: one for each message the node's body has (readMessages)
      messages: parts.typeUrls.length,
      fee_denoms: fee.denoms,
      fee_amounts: fee.amounts,
    });
    return row;
  });
  // the block's records, cut from one buffer once all are written
  const bytes = out.take();
  const txs = rows.map((row, i) => ({ ...row, record: bytes.subarray(spans[i]!, spans[i + 1]!) }));
  return { txs, tx_stats: stats, block_messages: messagesByType(raw.height, typeUrls) };
};
