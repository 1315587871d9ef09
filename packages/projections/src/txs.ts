import { createHash } from "node:crypto";
import {
  type Json,
  type JsonObject,
  type RawBlockV1,
  TOPIC,
  wordToAddress,
} from "@explorer/raw-block";
import { bech32ToHexLower, hexToBech32 } from "./address-cache.ts";
import { arr, blockTime, chTime, hexToDec, obj, type ProjectionContext, str } from "./context.ts";
import { evmTxSize } from "./evm-tx-size.ts";

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
  record: string;
}

/** CometBFT tx hash: sha256 of the tx bytes, uppercase hex. */
export const txHashOf = (base64: string): string =>
  createHash("sha256").update(Buffer.from(base64, "base64")).digest("hex").toUpperCase();

const hashesOf = new WeakMap<RawBlockV1, string[]>();
/** The CometBFT hashes of a block's txs, in order (computed once per RawBlock). */
export const txHashesOf = (raw: RawBlockV1): string[] => {
  let hashes = hashesOf.get(raw);
  if (!hashes) {
    hashes = arr(obj(obj(raw.comet.block.block).data).txs).map((t) => txHashOf(str(t)));
    hashesOf.set(raw, hashes);
  }
  return hashes;
};

const MSG_ETHEREUM_TX = /\.MsgEthereumTx$/;
const accountRes = new Map<string, RegExp>();
/** The account-address pattern of a prefix, built once per prefix (it is asked for every tx). */
const ACCOUNT = (prefix: string): RegExp => {
  let re = accountRes.get(prefix);
  if (!re) {
    re = new RegExp(`^${prefix}1[02-9ac-hj-np-z]{38}$`);
    accountRes.set(prefix, re);
  }
  return re;
};
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ZERO = /^0x0{40}$/;

/** Finds the accounts among the strings of a JSON value (see involved). */
class AccountScan {
  readonly out = new Set<string>();
  private readonly re: RegExp;
  private readonly head: string;
  private readonly length: number;

  constructor(private readonly prefix: string) {
    this.re = ACCOUNT(prefix);
    this.head = `${prefix}1`;
    this.length = this.head.length + 38;
  }

  scan(v: Json | undefined): void {
    if (typeof v === "string") this.string(v);
    else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) this.scan(v[i]);
    else if (v !== null && typeof v === "object") for (const k in v) this.scan(v[k]);
  }

  private string(s: string): void {
    if (s.length === this.length && s.startsWith(this.head) && this.re.test(s)) {
      const hex = bech32ToHexLower(s);
      if (hex) {
        this.out.add(s);
        this.out.add(hex);
      }
    } else if (s.length === 42 && s.startsWith("0x") && EVM_ADDRESS.test(s) && !ZERO.test(s)) {
      const hex = s.toLowerCase();
      this.out.add(hex);
      this.out.add(hexToBech32(this.prefix, hex));
    }
  }
}

/** Accounts involved in a tx, both forms: bech32 accounts and 0x addresses in its body and events. */
const involved = (prefix: string, ...sources: Json[]): string[] => {
  const scan = new AccountScan(prefix);
  for (const src of sources) scan.scan(src);
  return [...scan.out].sort();
};

/**
 * Accounts an EVM transaction's receipt involves beyond its `from` and `to`: the contract it
 * created, and the senders and recipients of the token transfers it made (Transfer,
 * TransferSingle, TransferBatch; not the zero address of mints and burns). Their addresses
 * are 32-byte topics, which the scan of the record's strings does not see.
 */
const receiptParties = (receipt: JsonObject | undefined): string[] => {
  if (!receipt || str(receipt.status) !== "0x1") return [];
  const out: string[] = [];
  if (str(receipt.contractAddress)) out.push(str(receipt.contractAddress).toLowerCase());
  for (const l of arr(receipt.logs).map(obj)) {
    const t = arr(l.topics).map(str);
    const words =
      t[0] === TOPIC.transfer && (t.length === 3 || t.length === 4)
        ? [t[1], t[2]]
        : (t[0] === TOPIC.transferSingle || t[0] === TOPIC.transferBatch) && t.length === 4
          ? [t[2], t[3]]
          : [];
    for (const w of words) if (w) out.push(wordToAddress(w)); // the scan leaves out the zero address
  }
  return out;
};

/** Events of a tx grouped per message, as the SPEC's `logs`. */
const logsOf = (events: JsonObject[]) => {
  const byMsg = new Map<number, { type: string; attributes: { key: string; value: string }[] }[]>();
  for (const e of events) {
    const attrs = arr(e.attributes).map(obj);
    const idx = attrs.find((a) => str(a.key) === "msg_index");
    if (!idx) continue;
    const i = Number(str(idx.value));
    const list = byMsg.get(i) ?? [];
    list.push({
      type: str(e.type),
      attributes: attrs
        .filter((a) => str(a.key) !== "msg_index")
        .map((a) => ({ key: str(a.key), value: str(a.value) })),
    });
    byMsg.set(i, list);
  }
  return [...byMsg.entries()]
    .sort(([a], [b]) => a - b)
    .map(([msg_index, events]) => ({ msg_index, events }));
};

/** go-ethereum's names of the typed transactions; a type after these is labelled as a fee-market one. */
const EVM_TX_TYPES: Record<string, string> = {
  "0x0": "LegacyTx",
  "0x1": "AccessListTx",
  "0x2": "DynamicFeeTx",
  "0x3": "BlobTx",
  "0x4": "SetCodeTx",
};

/** The SPEC's EVM message, from the EVM transaction as the JSON-RPC gives it (exact fields and values). */
const evmMessage = (typeUrl: string, evmTx: JsonObject, baseFee: string) => {
  const ns = typeUrl.replace(/\.MsgEthereumTx$/, "");
  const type = str(evmTx.type) || "0x0";
  const input = str(evmTx.input);
  return {
    data: {
      chain_id: hexToDec(evmTx.chainId),
      nonce: hexToDec(evmTx.nonce),
      gas_tip_cap: hexToDec(evmTx.maxPriorityFeePerGas ?? evmTx.gasPrice),
      gas_fee_cap: hexToDec(evmTx.maxFeePerGas ?? evmTx.gasPrice),
      gas: hexToDec(evmTx.gas),
      to: str(evmTx.to),
      value: hexToDec(evmTx.value),
      v: hexToDec(evmTx.v),
      r: hexToDec(evmTx.r),
      s: hexToDec(evmTx.s),
      from: str(evmTx.from),
      base_fee_per_gas: baseFee,
      data: input && input !== "0x" ? input : null,
      accesses: arr(evmTx.accessList),
      "@type": `${ns}.${EVM_TX_TYPES[type] ?? "DynamicFeeTx"}`,
    },
    size: evmTxSize(evmTx),
    hash: str(evmTx.hash),
    from: str(evmTx.from),
    "@type": typeUrl,
  };
};

export const projectTxs = (raw: RawBlockV1, ctx: ProjectionContext): { txs: TxRow[] } => {
  const hashes = txHashesOf(raw);
  const results = arr(raw.comet.blockResults.txs_results).map(obj);
  const evmTxs = new Map(
    arr(raw.evm.block?.transactions).map((t) => [str(obj(t).hash).toLowerCase(), obj(t)]),
  );
  const receipts = new Map(
    raw.evm.receipts.map((r) => [str(obj(r).transactionHash).toLowerCase(), obj(r)]),
  );
  const baseFee = hexToDec(raw.evm.block?.baseFeePerGas);
  const time = blockTime(raw);
  const txs: TxRow[] = [];
  hashes.forEach((txhash, idx) => {
    const result = results[idx] ?? {};
    const node = raw.txs[idx] ?? {};
    const body = obj(node.body);
    const events = arr(result.events).map(obj);
    const messages = arr(body.messages).map(obj);
    const evmHashes: string[] = [];
    const shaped = messages.map((m) => {
      const typeUrl = str(m["@type"]);
      if (!MSG_ETHEREUM_TX.test(typeUrl)) return m;
      const hash = str(m.hash).toLowerCase();
      evmHashes.push(hash);
      const evmTx = evmTxs.get(hash);
      return evmTx ? evmMessage(typeUrl, evmTx, baseFee) : m;
    });
    const isEvm = evmHashes.length > 0;
    const evmTxList = evmHashes
      .map((h) => evmTxs.get(h))
      .filter((t): t is JsonObject => t !== undefined);
    const addresses = involved(
      ctx.prefix,
      body,
      events as Json,
      evmTxList.map((t) => ({ from: t.from ?? null, to: t.to ?? null })),
      evmHashes.flatMap((h) => receiptParties(receipts.get(h))),
    );
    // The VM error of a failed EVM tx ("execution reverted"), from its ethereum_tx event.
    const vmError = events
      .filter((e) => str(e.type) === "ethereum_tx")
      .flatMap((e) => arr(e.attributes).map(obj))
      .find((a) => str(a.key) === "ethereumTxFailed");
    // The SPEC: consensus code 0 is receipt status 1 and code 1 is status 0. The node gives a
    // reverted EVM tx code 0 (the failure is in its ethereum_tx event), so the record says 1,
    // in cosmos/evm's codespace.
    const nodeCode = Number(result.code ?? 0);
    const code = nodeCode || (vmError ? 1 : 0);
    // The record has no `log`: a failed tx whose `info` is empty carries its reason there (the
    // node's log, or the VM error), so that an explorer can say why it failed.
    const reason = nodeCode ? str(result.log) : vmError ? str(vmError.value) : "";
    const record = {
      txhash,
      addresses,
      auth_info: node.auth_info ?? {},
      body: { ...body, messages: shaped },
      code,
      codespace: str(result.codespace) || (code && !nodeCode ? "evm" : ""),
      evm_txhashes: evmHashes,
      gas_used: str(result.gas_used),
      gas_wanted: str(result.gas_wanted),
      height: raw.height,
      info: str(result.info) || reason,
      isEVM: isEvm,
      logs: logsOf(events),
      signatures: arr(node.signatures),
      timestamp: time,
      xds: [],
    };
    const types = [...new Set(messages.map((m) => str(m["@type"])))];
    txs.push({
      height: raw.height,
      idx,
      txhash,
      time: chTime(time),
      code,
      is_evm: isEvm ? 1 : 0,
      evm_hashes: evmHashes,
      message_types: types,
      addresses,
      record: JSON.stringify(record),
    });
  });
  return { txs };
};
