import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints, nodePorts } from "@explorer/infra";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet } from "@explorer/store";
import { afterAll, describe, expect, it } from "vitest";
import { startIngester } from "../lib/ingester-process.ts";
import { freePort } from "../lib/net.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";
import { exited } from "../lib/spawn-ts.ts";
import { runDense, type SentTx } from "../workload/dense.ts";
import { batch, call, cometHeight } from "../workload/rpc.ts";

/**
 * The dense load generator (tests/workload) on the reference chain, a short run: DENSE_E2E_BLOCKS
 * (default 4) consecutive blocks of at least DENSE_E2E_MIN_TXS transactions, every kind it makes. Its heights
 * come after the scenario's, which the other tests read; it is not recorded as the chain's dense
 * run (the ingest bench's). An ingester follows the chain from before the run and is killed
 * (SIGKILL) while the load goes on; started again at once, it goes on from its log past the
 * run's last height. The log must hold every height once; the index built from it every
 * block's transactions as the node has them: counts, hashes (Cosmos and EVM) and outcomes (the
 * node's result code, the EVM receipt's status).
 */
const BLOCKS = Number(process.env.DENSE_E2E_BLOCKS ?? 4);
/** Senders: 32 put each of the generator's 12 kinds of action in every round 2-3 times. */
const SENDERS = Number(process.env.DENSE_E2E_SENDERS ?? 32);
/**
 * 20 by default: with the reference chain's 0.5 s blocks on two cores shared with other work (load
 * average 12-18), 32 senders' rounds were split across blocks (32, 16 + 16, 0 + 64): 8 blocks of
 * 25 in a row took over 100 blocks, and every transaction ingested costs the test time (the
 * ingester managed ~8 txs/s then). `npm run workload` and the ingest bench use 1 s blocks.
 */
const MIN_TXS = Number(process.env.DENSE_E2E_MIN_TXS ?? 20);
/** Every kind of transaction the generator makes (tests/workload/actions.ts). */
const KINDS = [
  "evm transfer",
  "cfc20 transfer",
  "bank send",
  "cfc721 mint",
  "contract call with logs",
  "delegate",
  "multi-send",
  "cfc721 transfer",
  "withdraw rewards",
  "deployment (cfc20 mint)",
  "failure: cfc20 transfer over balance",
  "failure: cfc721 transfer of a token not owned",
  "failure: bank send over balance",
  "failure: multi-send over balance",
  "failure: delegation to no validator",
  "failure: rewards of no delegation",
];

const node = endpoints(nodePorts(0));
const output: string[] = [];
const dirs: string[] = [];
const procs = new Set<ChildProcess>();
let store: ScenarioStore | undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tempDir = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), name));
  dirs.push(d);
  return d;
};

afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  await store?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const readBlocks = async (dir: string) => {
  const log = EmbeddedLog.open({ dir });
  const out: { height: number }[] = [];
  for await (const e of log.read(0, { follow: false }))
    if (e.kind === "block") out.push({ height: e.height });
  await log.close();
  return out;
};

/** The node's view of a height: its transactions' Cosmos hashes, in order, and result codes. */
const nodeBlock = async (h: number) => {
  const [block, results] = await Promise.all([
    call(node.cometRpc, "block", { height: String(h) }),
    call(node.cometRpc, "block_results", { height: String(h) }),
  ]);
  const txs = (block.block.data.txs ?? []) as string[];
  const codes = ((results.txs_results ?? []) as { code: number }[]).map((r) => r.code);
  return txs.map((t, i) => ({
    hash: createHash("sha256").update(Buffer.from(t, "base64")).digest("hex").toUpperCase(),
    code: codes[i] ?? Number.NaN,
  }));
};

describe("the dense load generator", () => {
  it(`fills ${BLOCKS} blocks with ≥ ${MIN_TXS} txs of every kind, each indexed as the node has it, through an ingester kill -9`, async () => {
    const t0 = Date.now();
    const say = (m: string) =>
      process.stderr.write(`[dense] ${m} (${Math.round((Date.now() - t0) / 1000)} s)\n`);
    const start = (await cometHeight(node.cometRpc)) + 1;
    const logDir = tempDir("dense-log-");
    const env = {
      COMET_RPC_URL: node.cometRpc,
      COSMOS_REST_URL: node.rest,
      EVM_RPC_URL: node.evmRpc,
      LOG_DIR: logDir,
      START_HEIGHT: String(start),
    };
    /** An ingester following the chain, and the height it has written (its metrics). */
    const follow = async () => {
      const port = await freePort();
      const p = startIngester({ ...env, METRICS_PORT: String(port) }, (l) =>
        output.push(`[ingester] ${l}`),
      );
      procs.add(p);
      const ingested = async () => {
        const text = await fetch(`http://127.0.0.1:${port}/metrics`)
          .then((r) => r.text())
          .catch(() => "");
        return Number(/^\w*ingester_ingested_height\S* (\S+)/m.exec(text)?.[1] ?? 0);
      };
      return { p, ingested };
    };
    let ingester = await follow();
    const sent: SentTx[] = [];
    let killedAt: Promise<number> | undefined;
    const dense = await runDense({
      cometRpc: node.cometRpc,
      evmRpc: node.evmRpc,
      blocks: BLOCKS,
      minTxs: MIN_TXS,
      senders: SENDERS,
      backlogRounds: 2, // a busy machine's slow CheckTx moves txs on rather than thinning blocks
      record: false,
      onSent: (t) => sent.push(t),
      log: (m) => {
        process.stderr.write(`[workload] ${m}\n`);
        // The kill: while the senders' load is going out, at a random moment; then a new one.
        if (m.startsWith("senders' contracts deployed"))
          killedAt = (async () => {
            await sleep(Math.random() * 500); // before the dense blocks: work is left
            const at = await ingester.ingested();
            ingester.p.kill("SIGKILL");
            await exited(ingester.p);
            procs.delete(ingester.p);
            say(`ingester killed at height ${at}`);
            ingester = await follow();
            return at;
          })();
      },
    });
    // It was killed mid-run: it had written heights, not all of them.
    const at = await killedAt;
    expect(at, output.join("").slice(-4000)).toBeGreaterThanOrEqual(start);
    expect(at).toBeLessThan(dense.toHeight);
    // Started again, it goes on from its log, past the run's last height.
    const deadline = Date.now() + 150_000;
    while ((await ingester.ingested()) < dense.toHeight && Date.now() < deadline) await sleep(500);
    ingester.p.kill("SIGTERM");
    await exited(ingester.p);
    procs.delete(ingester.p);
    say(`dense run ${dense.fromHeight}..${dense.toHeight}`);
    // The run as the generator promises it, on the node.
    expect(dense.blocks).toBe(BLOCKS);
    expect(dense.minTxsPerBlock).toBeGreaterThanOrEqual(MIN_TXS);
    const heights = Array.from({ length: dense.toHeight - start + 1 }, (_, i) => start + i);

    // The log: every height once, in order (the follower may have gone on past the run).
    const logged = (await readBlocks(logDir)).map((b) => b.height);
    expect(logged.slice(0, heights.length), output.join("").slice(-4000)).toEqual(heights);
    expect(logged).toEqual(Array.from({ length: logged.length }, (_, i) => start + i));
    say("ingested");

    // The index: each block's transactions, in order, with the node's outcome.
    store = await scenarioStore("dense-load", logDir);
    const { db } = await ensureCurrentSet(store.ch, "set");
    await store.project(db);
    const api = await store.api("set");
    say("projected");
    const get = async (path: string) => {
      const r = await fetch(`${api}${path}`);
      expect(r.status, path).toBe(200);
      return (await r.json()) as any;
    };
    // Each transaction as the index has it, beside the node's result code.
    const rows: { hash: string; height: number; failed: boolean; code: number; evm: string[] }[] =
      [];
    for (const h of heights) {
      const want = await nodeBlock(h);
      const block = await get(`/blocks/${h}`);
      expect(block.txs.length, `height ${h}`).toBe(want.length);
      const txs = await Promise.all(want.map((t) => get(`/txs/${t.hash}`)));
      expect(
        txs.map((t) => [t.height, t.txhash]),
        `height ${h}`,
      ).toEqual(want.map((t) => [h, t.hash]));
      for (const [i, t] of txs.entries())
        rows.push({
          hash: t.txhash,
          height: h,
          failed: t.code !== 0,
          code: want[i]!.code,
          evm: (t.evm_txhashes as string[]).map((e) => e.toLowerCase()),
        });
    }
    // An outcome as the node gives it: its result code, and for EVM transactions the receipt.
    const evm = rows.flatMap((r) => r.evm);
    const receipts = await batch(
      node.evmRpc,
      evm.map((e) => ({ method: "eth_getTransactionReceipt", params: [e] })),
    );
    const receipt = new Map(evm.map((e, i) => [e, receipts[i]?.result] as const));
    const byHash = new Map<string, (typeof rows)[number]>();
    for (const r of rows) {
      const nodeFailed = r.code !== 0 || r.evm.some((e) => receipt.get(e)?.status !== "0x1");
      expect(r.failed, r.hash).toBe(nodeFailed);
      for (const e of r.evm) expect(Number(receipt.get(e)?.blockNumber), e).toBe(r.height);
      for (const k of [r.hash, ...r.evm]) byHash.set(k, r);
    }

    say("compared with the node");
    // What the generator sent: every kind landed in the run's heights with its intended outcome.
    const landed = sent.filter((s) => byHash.has(s.hash));
    expect(landed.length).toBeGreaterThanOrEqual(BLOCKS * MIN_TXS);
    expect([...new Set(landed.map((s) => s.kind))].sort()).toEqual([...KINDS].sort());
    const unintended = landed.filter(
      (s) => (byHash.get(s.hash)!.failed ? "failure" : "success") !== s.expect,
    );
    expect(unintended.map((s) => `${s.kind} ${s.hash}`)).toEqual([]);
    process.stderr.write(
      `[dense] heights ${start}..${dense.toHeight} (dense ${dense.fromHeight}..${dense.toHeight}), ${rows.length} txs indexed, ${landed.length} of the generator's txs, ${dense.seconds} s\n`,
    );
  }, 240_000);
});
