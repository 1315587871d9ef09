import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachRpc, buildApi, rpcSettings } from "@explorer/api";
import { keyFromMnemonic } from "@explorer/chain";
import {
  chainStart,
  endpoints,
  isNodeRunning,
  nodePorts,
  referenceChain,
  testAccounts,
} from "@explorer/infra";
import { makeReaders } from "@explorer/ingester";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { projectLog } from "@explorer/projector";
import { encodeRecord, type RawBlockV1 } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { settingsFromEnv } from "@explorer/service";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { listenLocal } from "../lib/net.ts";
import { resultFile } from "../scenario/run.ts";
import { denseLogDir, denseRun, ingestRange } from "./dense-run.ts";
import { hasWrk, type LoadResult, load } from "./load.ts";
import { copyAt } from "./synthetic-log.ts";
import { type Figure, median, percentile } from "./table.ts";

/**
 * The JSON-RPC proxy against the node it fronts, in the same run:
 * 1. eth_blockNumber, eth_call and eth_getBalance: throughput at 16 connections (saturation)
 *    through the proxy and directly against the reference node, alternately, BENCH_RPC_ROUNDS
 *    rounds (default 3, medians); latency one call at a time (so it is service time, not
 *    queueing), direct and through the proxy in turns: what the proxy adds at p50 and p99.
 *    The same for eth_blockNumber against a stand-in node that answers at once (its own process):
 *    the proxy's own cost, which the reference node's latency on a loaded machine would hide.
 * 2. eth_getLogs, the node against the index over the same dense blocks (the chain's dense run,
 *    see logsOverDense); and the index alone over 10,000 heights of a synthetic log (recorded
 *    blocks copied at new heights: one in ten with a transaction emitting logs).
 */
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const ROUNDS = Number(process.env.BENCH_RPC_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_RPC_SECONDS ?? 5);
const CONCURRENCY = 16;
const BLOCKS = 10_000;

const e = endpoints(nodePorts(0));

const settingsFor = (env: Record<string, unknown>) =>
  rpcSettings(
    settingsFromEnv(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]))),
    new Map(),
  );

const rpcBody = (method: string, params: unknown[]) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

const ask = async (url: string, body: string) => {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return (await r.json()) as { result?: unknown; error?: { message: string } };
};

/** A proxy in this process, in front of the reference node (no index: these calls never use it). */
const startProxy = async (upstream = `${e.evmRpc}|${e.evmWs}`) => {
  const server = createServer();
  const { port } = await listenLocal({ listen: (p, h, cb) => server.listen(p, h, cb) });
  const rpc = await attachRpc(
    server,
    settingsFor({
      RPC_UPSTREAMS: upstream,
      RPC_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
    }),
  );
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    close: async () => {
      await rpc.close();
      await new Promise((r) => server.close(r));
    },
  };
};

const calls = (): [string, string][] => {
  const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos").evm;
  const token = existsSync(resultFile())
    ? (JSON.parse(readFileSync(resultFile(), "utf8")) as { contracts: Record<string, string> })
        .contracts.TestToken
    : undefined;
  // balanceOf(alice) on the scenario's token (or on an address without code: still a full eth_call)
  const data = `0x70a08231${alice.slice(2).toLowerCase().padStart(64, "0")}`;
  return [
    ["eth_blockNumber", rpcBody("eth_blockNumber", [])],
    ["eth_call", rpcBody("eth_call", [{ to: token ?? alice, data }, "latest"])],
    ["eth_getBalance", rpcBody("eth_getBalance", [alice, "latest"])],
  ];
};

const summary = (rs: LoadResult[]) => ({
  rps: median(rs.map((r) => r.rps)),
  p50: median(rs.map((r) => r.p50)),
  p99: median(rs.map((r) => r.p99)),
  errors: rs.reduce((n, r) => n + r.errors, 0),
});

/**
 * Latency one call at a time, direct and through the proxy in turns (pairs, so the node's drift
 * hits both alike): p50 and p99 of each, and the median of the pairs' differences.
 */
const paired = async (proxyUrl: string, body: string, seconds: number, directUrl = e.evmRpc) => {
  const direct: number[] = [];
  const proxied: number[] = [];
  const added: number[] = [];
  const end = performance.now() + seconds * 1000;
  const time = async (url: string) => {
    const t0 = performance.now();
    await ask(url, body);
    return performance.now() - t0;
  };
  for (let i = 0; performance.now() < end; i++) {
    // which goes first alternates
    let d: number;
    let p: number;
    if (i % 2) {
      d = await time(directUrl);
      p = await time(proxyUrl);
    } else {
      p = await time(proxyUrl);
      d = await time(directUrl);
    }
    direct.push(d);
    proxied.push(p);
    added.push(p - d);
  }
  return {
    direct: { p50: percentile(direct, 50), p99: percentile(direct, 99) },
    proxy: { p50: percentile(proxied, 50), p99: percentile(proxied, 99) },
    added: median(added),
    pairs: added.length,
  };
};

const throughput = async (): Promise<Figure[]> => {
  const proxy = await startProxy();
  const figures: Figure[] = [];
  for (const [method, body] of calls()) {
    const check = await ask(proxy.url, body);
    if (check.error) throw new Error(`${method} through the proxy failed: ${check.error.message}`);
    const runs = { direct: [] as LoadResult[], proxy: [] as LoadResult[] };
    let proxyCpuUs = 0;
    for (let i = 0; i < ROUNDS; i++)
      for (const [who, url] of [
        ["direct", e.evmRpc],
        ["proxy", proxy.url],
      ] as const) {
        const cpu0 = process.cpuUsage();
        runs[who].push(await load({ url, body, concurrency: CONCURRENCY, seconds: SECONDS }));
        const cpu = process.cpuUsage(cpu0);
        if (who === "proxy") proxyCpuUs += cpu.user + cpu.system;
      }
    const [d, p] = [summary(runs.direct), summary(runs.proxy)];
    const proxied = runs.proxy.reduce((n, r) => n + r.requests, 0);
    const one = await paired(proxy.url, body, SECONDS * ROUNDS);
    figures.push(
      {
        bench: "rpc",
        metric: `${method} direct`,
        value: d.rps,
        unit: "req/s",
        note: `${CONCURRENCY} connections: p50 ${d.p50.toFixed(2)} ms, p99 ${d.p99.toFixed(2)} ms, ${d.errors} errors; one at a time: p50 ${one.direct.p50.toFixed(2)} ms, p99 ${one.direct.p99.toFixed(2)} ms`,
      },
      {
        bench: "rpc",
        metric: `${method} through the proxy`,
        value: p.rps,
        unit: "req/s",
        note: `${(p.rps / d.rps).toFixed(2)} of direct (goal ≥ 0.8); ${CONCURRENCY} connections: p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms, ${p.errors} errors; one at a time: p50 ${one.proxy.p50.toFixed(2)} ms, p99 ${one.proxy.p99.toFixed(2)} ms`,
      },
      {
        bench: "rpc",
        metric: `${method}: the proxy's CPU per call`,
        value: proxyCpuUs / proxied,
        unit: "µs",
        note: `this process's CPU time over the runs through the proxy, per call (${proxied} calls)${hasWrk ? "" : "; the load client runs in this process too (no wrk): an upper bound"}. On these 2 cores it is taken from the node's`,
      },
      {
        bench: "rpc",
        metric: `${method} added latency`,
        value: one.added,
        unit: "ms",
        note: `median of ${one.pairs} pairs (proxy − direct, one call at a time, in turns) (goal ≤ 1 ms at p50); p99 through the proxy − p99 direct: ${(one.proxy.p99 - one.direct.p99).toFixed(2)} ms`,
      },
    );
  }
  await proxy.close();
  return figures;
};

/**
 * A stand-in node in its own process: answers every call at once with a constant result (batches
 * too). Against it, what is measured is the proxy's own cost, which the reference node's latency
 * on a loaded machine (hundreds of ms) would hide. Not a test double: nothing is asserted on it.
 */
const STAND_IN = `
const http = require("node:http");
const one = (m) => ({ jsonrpc: "2.0", id: m.id, result: "0x1" });
http.createServer((req, res) => {
  const c = [];
  req.on("data", (d) => c.push(d));
  req.on("end", () => {
    const b = JSON.parse(Buffer.concat(c).toString());
    const out = JSON.stringify(Array.isArray(b) ? b.map(one) : one(b)) + "\\n";
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
    res.end(out);
  });
}).listen(0, "127.0.0.1", function () { process.stdout.write(String(this.address().port) + "\\n"); });
`;

const standInFigures = async (): Promise<Figure[]> => {
  const child = spawn(process.execPath, ["-e", STAND_IN], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  const url = `http://127.0.0.1:${port}/`;
  const proxy = await startProxy(url);
  const body = rpcBody("eth_blockNumber", []);
  const direct: LoadResult[] = [];
  const proxied: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    direct.push(await load({ url, body, concurrency: CONCURRENCY, seconds: SECONDS }));
    proxied.push(await load({ url: proxy.url, body, concurrency: CONCURRENCY, seconds: SECONDS }));
  }
  const one = await paired(proxy.url, body, SECONDS, url);
  await proxy.close();
  child.kill();
  const [d, p] = [summary(direct), summary(proxied)];
  return [
    {
      bench: "rpc",
      metric: "proxy's own cost: throughput",
      value: p.rps,
      unit: "req/s",
      note: `eth_blockNumber against a stand-in node answering at once: ${d.rps.toFixed(0)} req/s direct, ${(p.rps / d.rps).toFixed(2)} of it through the proxy (${CONCURRENCY} connections)`,
    },
    {
      bench: "rpc",
      metric: "proxy's own cost: added latency",
      value: one.added,
      unit: "ms",
      note: `median of ${one.pairs} pairs, one call at a time (direct p50 ${one.direct.p50.toFixed(2)} ms, through the proxy ${one.proxy.p50.toFixed(2)} ms; p99 ${one.direct.p99.toFixed(2)} / ${one.proxy.p99.toFixed(2)} ms)`,
    },
  ];
};

const hex = (n: number) => `0x${n.toString(16)}`;

/** Median time (ms) of `runs` answers to the same eth_getLogs, after one unmeasured, and its log count. */
const timeLogs = async (url: string, filter: object, runs: number) => {
  const body = rpcBody("eth_getLogs", [filter]);
  const first = await ask(url, body);
  if (first.error) throw new Error(`eth_getLogs at ${url} failed: ${first.error.message}`);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await ask(url, body);
    times.push(performance.now() - t0);
  }
  const logs = first.result as unknown[];
  return { ms: median(times), logs: logs.length, keys: logKeys(logs) };
};

/** The store's index behind an index-only JSON-RPC proxy (no upstream), no limits in the way. */
const serveIndex = async (ch: Awaited<ReturnType<typeof openClickHouse>>) => {
  const { app, runtime } = buildApi(ch, "explorer", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1_000_000_000,
    apiKeys: new Map(),
  });
  const { server, port } = await listenLocal(app);
  const rpc = await attachRpc(
    server,
    settingsFor({
      RPC_UPSTREAMS: "",
      RPC_RATE_LIMIT_PER_MINUTE: 1_000_000_000,
      RPC_LOGS_MAX_RESULTS: 1_000_000,
    }),
    runtime,
  );
  return {
    url: `http://127.0.0.1:${port}/rpc`,
    close: async () => {
      await rpc.close();
      await new Promise((r) => server.close(r));
      await runtime.dispose();
    },
  };
};

/** A store projected from the log in `logDir`, in `dir`. */
const projectedStore = async (logDir: string, dir: string) => {
  const log = EmbeddedLog.open({ dir: logDir, sync: false });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const t0 = performance.now();
  await projectLog(ch, db, log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 500,
    batchIdleMs: 100,
    follow: false,
  });
  await log.close();
  return { ch, seconds: (performance.now() - t0) / 1000 };
};

const hasLogs = (b: RawBlockV1) =>
  b.evm.receipts.some((r) => r.status === "0x1" && Array.isArray(r.logs) && r.logs.length > 0);

/** The index alone over 10,000 heights of a synthetic log: how it scales past the chain's length. */
const logsOver10k = async (): Promise<Figure[]> => {
  const recorded = recordedBlocks();
  const empty = recorded.find((b) => b.txs.length === 0 && b.height > 1)!;
  const withLogs = recorded.find(hasLogs)!;
  const dir = mkdtempSync(join(tmpdir(), "bench-rpc-"));
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  for (let h = 1; h <= BLOCKS; h++)
    await log.appendBlock(h, encodeRecord(copyAt(h % 10 === 0 ? withLogs : empty, h)));
  log.flush();
  await log.close();
  const { ch, seconds } = await projectedStore(join(dir, "log"), dir);
  process.stderr.write(`[bench] ${BLOCKS} synthetic blocks projected in ${seconds.toFixed(0)} s\n`);
  const served = await serveIndex(ch);
  const index = await timeLogs(served.url, { fromBlock: "0x1", toBlock: hex(BLOCKS) }, 5);
  await served.close();
  await ch.close();
  rmSync(dir, { recursive: true, force: true });
  return [
    {
      bench: "rpc",
      metric: "eth_getLogs, 10,000 blocks, index",
      value: index.ms,
      unit: "ms",
      note: `blocks 1..${BLOCKS} of a synthetic log (1 in 10 with logs): ${index.logs} logs; median of 5, through an index-only proxy`,
    },
  ];
};

/** The logs of every answer, as (transaction, index) keys: both sides must list the same logs. */
const logKeys = (logs: unknown[]) =>
  (logs as { transactionHash: string; logIndex: string }[])
    .map((l) => `${l.transactionHash}:${Number(l.logIndex)}`)
    .sort()
    .join();

/**
 * The node and the index over the same dense blocks: the chain's dense run (tests/workload), its
 * log as the ingest bench kept it (ingested here if absent), projected into a new store. Three
 * filters: every log, one event (Transfer), one contract. Both answers must hold the same logs.
 */
const logsOverDense = async (started: boolean): Promise<Figure[]> => {
  const dense = await denseRun(started).catch((e: Error) => e);
  if (dense instanceof Error)
    return [
      {
        bench: "rpc",
        metric: "eth_getLogs, dense run: node / index",
        value: Number.NaN,
        unit: "×",
        note: `not measured: ${dense.message}`,
      },
    ];
  const logDir = denseLogDir(dense);
  if (!existsSync(join(logDir, "log.dat"))) {
    process.stderr.write(
      `[bench] ingesting the dense run ${dense.fromHeight}..${dense.toHeight}\n`,
    );
    const readers = makeReaders({
      cometRpc: e.cometRpc,
      rest: e.rest,
      evmRpc: e.evmRpc,
      prefix: referenceChain.bech32Prefix,
    });
    await ingestRange(readers, dense.fromHeight, dense.toHeight, logDir);
    readers.close();
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-rpc-dense-"));
  const { ch, seconds } = await projectedStore(logDir, dir);
  process.stderr.write(`[bench] the dense run projected in ${seconds.toFixed(0)} s\n`);
  const served = await serveIndex(ch);
  const range = { fromBlock: hex(dense.fromHeight), toBlock: hex(dense.toHeight) };
  const all = await ask(e.evmRpc, rpcBody("eth_getLogs", [range]));
  const some = (all.result ?? []) as { address: string }[];
  const filters: [string, object][] = [
    ["every log", range],
    ["Transfer events", { ...range, topics: [TRANSFER] }],
    ["one contract", { ...range, address: some[0]?.address }],
  ];
  const figures: Figure[] = [];
  const blocks = dense.toHeight - dense.fromHeight + 1;
  for (const [name, filter] of filters) {
    const node = await timeLogs(e.evmRpc, filter, 3);
    const index = await timeLogs(served.url, filter, 5);
    if (node.keys !== index.keys)
      throw new Error(
        `eth_getLogs (${name}): the index's ${index.logs} logs are not the node's ${node.logs}`,
      );
    figures.push({
      bench: "rpc",
      metric: `eth_getLogs, dense run, ${name}: node / index`,
      value: node.ms / index.ms,
      unit: "×",
      note: `${blocks} blocks, ${dense.txs} txs, ${node.logs} logs (the same both sides): node ${node.ms.toFixed(0)} ms (median of 3), index ${index.ms.toFixed(1)} ms (median of 5, through an index-only proxy); goal > 1`,
    });
  }
  await served.close();
  await ch.close();
  rmSync(dir, { recursive: true, force: true });
  return figures;
};

export const run = async (): Promise<Figure[]> => {
  const started = !isNodeRunning(0);
  if (started) {
    process.env.EXPLORER_BLOCK_TIME ??= "1s"; // for the dense run, as the ingest bench makes it
    await chainStart();
  }
  const figures = [
    ...(await throughput()),
    ...(await standInFigures()),
    ...(await logsOver10k()),
    ...(await logsOverDense(started)),
  ];
  figures.push({
    bench: "rpc",
    metric: "load",
    value: CONCURRENCY,
    unit: "connections",
    note: `${hasWrk ? "wrk" : "load-client.ts"}, ${SECONDS} s per run, ${ROUNDS} rounds alternating direct and proxy`,
  });
  return figures;
};
