import { key, type LightBlock, type Packed } from "@explorer/raw-block";
import { hexToBech32 } from "./address-cache.ts";
import { arr, blockTime, chTime, obj, str } from "./context.ts";
import { type Event, isText, strAt } from "./tx-parts.ts";

/**
 * The rows of sql/024 that come from the raw block: the accounts active in it (`account_activity`)
 * and its native coin transfers (`native_transfer_stats`), for the account and native coin
 * charts of `/stats/*` (docs/analytics.md).
 */

const TX = key("tx");
const ACC_SEQ = key("acc_seq");

/**
 * The accounts that signed a transaction, as its events name them: the ante handler's `tx` event
 * has an `acc_seq` attribute (`<bech32>/<sequence>`) per signer, a failed transaction's too.
 */
export const signersOf = (p: Packed, events: readonly Event[]): string[] => {
  const out: string[] = [];
  for (const e of events) {
    if (!isText(p, e.type, TX)) continue;
    for (const a of e.attributes) {
      if (!isText(p, a.key, ACC_SEQ)) continue;
      const v = strAt(p, a.value);
      const slash = v.lastIndexOf("/");
      if (slash > 0) out.push(v.slice(0, slash).toLowerCase());
    }
  }
  return out;
};

/** The accounts active in a transaction: its signers, and the senders of its EVM transactions. */
export const activeIn = (
  signers: readonly string[],
  evmFroms: readonly string[],
  prefix: string,
) => [...signers, ...evmFroms.filter(Boolean).map((f) => hexToBech32(prefix, f.toLowerCase()))];

/** What sql/024 needs of a projected transaction (txs.ts gives it). */
export interface TxActivity {
  readonly code: number;
  readonly message_types: readonly string[];
  /** The accounts active in it (activeIn). */
  readonly active: readonly string[];
  /** The SPEC Transaction record, JSON text. */
  readonly record: Uint8Array;
}

const MSG_SEND = "/cosmos.bank.v1beta1.MsgSend";
const MSG_MULTI_SEND = "/cosmos.bank.v1beta1.MsgMultiSend";

interface Coin {
  readonly denom?: unknown;
  readonly amount?: unknown;
}

/** The denoms of `coins` with a positive amount. */
const sent = (coins: unknown): string[] =>
  arr(coins as never)
    .map((c) => c as Coin)
    .filter((c) => /^[1-9]\d*$/.test(str(c.amount as never)))
    .map((c) => str(c.denom as never));

/**
 * The native coin transfers of a successful transaction's bank messages, by denom: a `MsgSend`
 * counts once for each denom it sends, a `MsgMultiSend` once per output and denom. Top-level
 * messages only (not those inside an authz `MsgExec`).
 */
export const bankTransfers = (tx: TxActivity): string[] => {
  if (tx.code !== 0) return [];
  if (!tx.message_types.includes(MSG_SEND) && !tx.message_types.includes(MSG_MULTI_SEND)) return [];
  const record = JSON.parse(new TextDecoder().decode(tx.record)) as {
    body?: { messages?: Record<string, unknown>[] };
  };
  return (record.body?.messages ?? []).flatMap((m) => {
    if (m["@type"] === MSG_SEND) return [...new Set(sent(m.amount))];
    if (m["@type"] === MSG_MULTI_SEND)
      return arr(m.outputs as never).flatMap((o) => [...new Set(sent(obj(o).coins))]);
    return [];
  });
};

/** EVM transactions of the block that succeeded with a value > 0 (their receipts' status 1). */
const evmValueTransfers = (raw: LightBlock): number => {
  const ok = new Set(
    raw.evm.receipts
      .map(obj)
      .filter((r) => str(r.status) === "0x1")
      .map((r) => str(r.transactionHash).toLowerCase()),
  );
  return arr(raw.evm.block?.transactions)
    .map(obj)
    .filter((t) => ok.has(str(t.hash).toLowerCase()) && BigInt(str(t.value) || "0") > 0n).length;
};

/** A block's rows of `account_activity` and `native_transfer_stats` (sql/024). */
export const projectAccountStats = (raw: LightBlock, txs: readonly TxActivity[]) => {
  const time = chTime(blockTime(raw));
  const active = [...new Set(txs.flatMap((t) => t.active))].sort();
  const bank = new Map<string, number>();
  for (const t of txs) for (const d of bankTransfers(t)) bank.set(d, (bank.get(d) ?? 0) + 1);
  const denoms = [...bank.keys()].sort();
  return {
    account_activity: active.map((address) => ({ height: raw.height, address, time })),
    native_transfer_stats: [
      {
        height: raw.height,
        time,
        evm_transfers: evmValueTransfers(raw),
        bank_denoms: denoms,
        bank_transfers: denoms.map((d) => bank.get(d)!),
      },
    ],
  };
};
