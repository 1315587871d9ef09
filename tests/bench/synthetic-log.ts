import { recordedBlocks } from "@explorer/projections/fixtures";
import { encodeRecord, type Json, type JsonObject, type RawBlockV1 } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { SETTINGS } from "@explorer/service/settings";

/**
 * A large log built from real blocks: the RawBlocks recorded from the reference chain are merged
 * into one dense template block (every tx, result, EVM tx, receipt, trace and state read of them),
 * then copied at new heights with rewritten block hashes, tx bytes (so CometBFT hashes differ) and
 * EVM hashes. The copies keep every field the projections read.
 */
const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
const obj = (v: Json | undefined): JsonObject =>
  v && typeof v === "object" && !Array.isArray(v) ? v : {};

export const denseTemplate = (blocks: RawBlockV1[]): RawBlockV1 => {
  const last = blocks.at(-1)!;
  const txsB64: Json[] = [];
  const results: Json[] = [];
  const nodeTxs: JsonObject[] = [];
  const evmTxs: Json[] = [];
  const receipts: JsonObject[] = [];
  const traces: JsonObject[] = [];
  let logIndex = 0;
  for (const b of blocks) {
    txsB64.push(...arr(obj(obj(b.comet.block.block).data).txs));
    results.push(...arr(b.comet.blockResults.txs_results));
    nodeTxs.push(...b.txs);
    for (const [i, t] of arr(b.evm.block?.transactions).entries()) {
      evmTxs.push({ ...obj(t), transactionIndex: `0x${(evmTxs.length).toString(16)}` });
      const r = obj(b.evm.receipts[i]);
      receipts.push({
        ...r,
        transactionIndex: `0x${(receipts.length).toString(16)}`,
        logs: arr(r.logs).map((l) => ({ ...obj(l), logIndex: `0x${(logIndex++).toString(16)}` })),
      });
      traces.push(obj(b.evm.traces?.[i]));
    }
  }
  const block = obj(last.comet.block.block);
  return {
    ...last,
    comet: {
      ...last.comet,
      block: {
        ...last.comet.block,
        block: { ...block, data: { ...obj(block.data), txs: txsB64 } },
      },
      blockResults: { ...last.comet.blockResults, txs_results: results },
    },
    txs: nodeTxs,
    evm: { block: { ...obj(last.evm.block), transactions: evmTxs }, receipts, traces },
    state: {
      ...last.state,
      accounts: Object.assign({}, ...blocks.map((b) => b.state.accounts)),
      validators: null,
    },
    contracts: [],
    tokens: Object.assign({}, ...blocks.map((b) => b.tokens)),
  };
};

const rewriteHash = (hash: string, n: number): string =>
  `${hash.slice(0, -12)}${n.toString(16).padStart(12, "0")}`;

/** The template at height h: new block hash, tx bytes and EVM hashes; everything else as recorded. */
export const copyAt = (template: RawBlockV1, h: number): RawBlockV1 => {
  const json = JSON.stringify(template);
  const t = JSON.parse(json) as RawBlockV1;
  const block = obj(t.comet.block.block);
  const header = obj(block.header);
  header.height = String(h);
  (t.comet.block.block_id as JsonObject).hash = rewriteHash(
    String(obj(t.comet.block.block_id).hash),
    h,
  );
  obj(block.data).txs = arr(obj(block.data).txs).map((b64, i) =>
    Buffer.concat([Buffer.from(String(b64), "base64"), Buffer.from(`${h}:${i}`)]).toString(
      "base64",
    ),
  );
  const hashes = new Map<string, string>();
  for (const [i, tx] of arr(t.evm.block?.transactions).entries()) {
    const o = obj(tx);
    const old = String(o.hash);
    const next = rewriteHash(old, h * 1000 + i);
    hashes.set(old, next);
    o.hash = next;
    o.blockNumber = `0x${h.toString(16)}`;
  }
  for (const r of t.evm.receipts) {
    r.transactionHash = hashes.get(String(r.transactionHash)) ?? String(r.transactionHash);
    r.blockNumber = `0x${h.toString(16)}`;
  }
  for (const n of t.txs)
    for (const m of arr(obj(n.body).messages).map(obj))
      if (typeof m.hash === "string") m.hash = hashes.get(m.hash) ?? m.hash;
  const evm = obj(t.evm.block);
  evm.number = `0x${h.toString(16)}`;
  return { ...t, height: h };
};

/**
 * An embedded log in `dir` of at least `txs` transactions: the dense template (every recorded
 * block merged) copied at heights 1, 2, … (see copyAt).
 */
/** How the benches replay a synthetic log (projectLog's options): the reference chain's prefix and denom, the projector's default batches, no following. */
export const REPLAY_OPTIONS = {
  prefix: "cosmos",
  nativeDenoms: ["atest"],
  batchBlocks: SETTINGS.batchBlocks.default, // as the projector runs
  batchIdleMs: 100,
  follow: false,
} as const;

/**
 * How a synthetic log's blocks differ from the template's: `spanDays`, block times spread evenly
 * over that many days ending at `end` (the template's time: every block at it); `validators`,
 * every block carrying the recorded validator set (the template: none).
 */
export interface SyntheticOptions {
  readonly spanDays?: number;
  readonly end?: string;
  readonly validators?: boolean;
}

/** Block h of n at its time: spread over `spanDays` up to `end`, or the template's. */
const timed = (b: RawBlockV1, h: number, n: number, o: SyntheticOptions): RawBlockV1 => {
  if (!o.spanDays) return b;
  const end = Date.parse(o.end ?? "2026-11-28T12:00:00Z");
  const time = new Date(end - Math.round(((n - h) * o.spanDays * 86_400_000) / n)).toISOString();
  obj(obj(b.comet.block.block).header).time = time;
  return { ...b, time };
};

export const syntheticLog = async (dir: string, txs: number, o: SyntheticOptions = {}) => {
  const recorded = recordedBlocks();
  const dense = denseTemplate(recorded);
  const validators = o.validators
    ? (recorded.find((b) => b.state.validators)?.state.validators ?? null)
    : null;
  const template = { ...dense, state: { ...dense.state, validators } };
  const perBlock = template.txs.length;
  const blocks = Math.ceil(txs / perBlock);
  const t0 = performance.now();
  const log = EmbeddedLog.open({ dir, sync: false });
  for (let h = 1; h <= blocks; h++)
    await log.appendBlock(h, encodeRecord(timed(copyAt(template, h), h, blocks, o)));
  log.flush();
  const blockKiB = encodeRecord(copyAt(template, 1)).length / 1024;
  process.stderr.write(
    `[bench] log of ${blocks} blocks × ${perBlock} txs built in ${((performance.now() - t0) / 1000).toFixed(0)} s (${blockKiB.toFixed(0)} KiB per block as a log record)\n`,
  );
  return { log, blocks, perBlock };
};
