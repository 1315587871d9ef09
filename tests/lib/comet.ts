import { sha256 } from "@cosmjs/crypto";
import { fromBase64, toHex } from "@cosmjs/encoding";
import { MsgExec, MsgGrant } from "cosmjs-types/cosmos/authz/v1beta1/tx";
import { MsgGrantAllowance } from "cosmjs-types/cosmos/feegrant/v1beta1/tx";
import { TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";

/** A transaction of a block as the chain itself records it: bytes, decoded messages, result. */
export interface ChainTx {
  readonly height: number;
  readonly hash: string;
  /**
   * Type URLs of the messages, each followed by the type URLs it carries: the messages of an authz
   * MsgExec, the authorization of a MsgGrant, the allowance of a MsgGrantAllowance.
   */
  readonly typeUrls: readonly string[];
  readonly code: number;
  readonly events: readonly { type: string; attributes: { key: string; value: string }[] }[];
}

/** The `result` of a CometBFT RPC GET path (an HTTP error is thrown). */
export const cometGet = async <T = any>(rpc: string, path: string): Promise<T> => {
  const r = await fetch(`${rpc}${path}`);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return ((await r.json()) as { result: T }).result;
};

/** `f` over `items`, at most `n` at a time, the results in the items' order. */
export const mapLimit = async <T, R>(
  items: readonly T[],
  n: number,
  f: (x: T) => Promise<R>,
): Promise<R[]> => {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return out;
};

const nested: Record<string, (value: Uint8Array) => string[]> = {
  "/cosmos.authz.v1beta1.MsgExec": (v) => MsgExec.decode(v).msgs.map((x) => x.typeUrl),
  "/cosmos.authz.v1beta1.MsgGrant": (v) => [MsgGrant.decode(v).grant?.authorization?.typeUrl ?? ""],
  "/cosmos.feegrant.v1beta1.MsgGrantAllowance": (v) => [
    MsgGrantAllowance.decode(v).allowance?.typeUrl ?? "",
  ],
};

const typeUrlsOf = (txBytes: Uint8Array): string[] =>
  TxBody.decode(TxRaw.decode(txBytes).bodyBytes).messages.flatMap((m) => [
    m.typeUrl,
    ...(nested[m.typeUrl]?.(m.value) ?? []),
  ]);

const readHeight = async (rpc: string, h: number): Promise<ChainTx[]> => {
  const block = await cometGet<{ block: { data: { txs: string[] | null } } }>(
    rpc,
    `/block?height=${h}`,
  );
  const txs = block.block.data.txs ?? [];
  if (txs.length === 0) return [];
  const results = await cometGet<{ txs_results: { code: number; events: ChainTx["events"] }[] }>(
    rpc,
    `/block_results?height=${h}`,
  );
  return txs.map((b64, i) => {
    const bytes = fromBase64(b64);
    const r = results.txs_results[i]!;
    return {
      height: h,
      hash: toHex(sha256(bytes)).toUpperCase(),
      typeUrls: typeUrlsOf(bytes),
      code: r.code,
      events: r.events,
    };
  });
};

/** Every transaction of heights [from, to], read from CometBFT's /block and /block_results. */
export const readChainTxs = async (
  rpc: string,
  from: number,
  to: number,
  concurrency = 8,
): Promise<ChainTx[]> => {
  const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  return (await mapLimit(heights, concurrency, (h) => readHeight(rpc, h))).flat();
};

/** Value of an attribute of the first event of a type. */
export const attr = (tx: ChainTx, type: string, key: string): string | undefined =>
  tx.events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;

export interface BlockEvent {
  readonly height: number;
  readonly type: string;
  readonly attributes: Record<string, string>;
}

/** Events of the block itself (begin/end block: slashing, jailing, rewards), heights [from, to]. */
export const readBlockEvents = async (
  rpc: string,
  from: number,
  to: number,
  types: readonly string[],
): Promise<BlockEvent[]> => {
  const out: BlockEvent[] = [];
  for (let h = from; h <= to; h++) {
    const r = await cometGet<{ finalize_block_events?: ChainTx["events"] | null }>(
      rpc,
      `/block_results?height=${h}`,
    );
    for (const e of r.finalize_block_events ?? []) {
      if (types.includes(e.type))
        out.push({
          height: h,
          type: e.type,
          attributes: Object.fromEntries(e.attributes.map((a) => [a.key, a.value])),
        });
    }
  }
  return out;
};

/** A transaction CometBFT's tx_search found: its hash (upper-case hex) and height. */
export interface FoundTx {
  readonly hash: string;
  readonly height: number;
}

/** Every transaction CometBFT's event index finds for `query` (`key='value' AND …`), 100 a page. */
export const txSearch = async (rpc: string, query: string): Promise<FoundTx[]> => {
  const found: FoundTx[] = [];
  for (let page = 1; ; page++) {
    const r = await cometGet<{ txs: { hash: string; height: string }[]; total_count: string }>(
      rpc,
      `/tx_search?query=${encodeURIComponent(`"${query}"`)}&per_page=100&page=${page}`,
    );
    found.push(...r.txs.map((t) => ({ hash: t.hash, height: Number(t.height) })));
    if (r.txs.length === 0 || found.length >= Number(r.total_count)) return found;
  }
};

/**
 * The transactions CometBFT's event index names `bech32` in (it sent a message, or sent or
 * received coins), each once, by hash; `and` narrows every query (`tx.height<=9`).
 */
export const txsNaming = async (
  rpc: string,
  bech32: string,
  and?: string,
): Promise<Map<string, number>> => {
  const named = new Map<string, number>();
  for (const key of ["message.sender", "transfer.sender", "transfer.recipient"])
    for (const t of await txSearch(rpc, `${key}='${bech32}'${and ? ` AND ${and}` : ""}`))
      named.set(t.hash, t.height);
  return named;
};
