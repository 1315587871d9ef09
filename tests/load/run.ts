/**
 * `npm run load`: the embedded service (projector, chDB, REST API, Socket.IO stream, in this
 * process, as `npm start` wires them) under LOAD_CLIENTS HTTP clients (default 200, over a mix of
 * endpoints) and LOAD_STREAM_CLIENTS stream clients (default 500) for LOAD_SECONDS (default 60)
 * while new heights arrive. Prints throughput, latency p50/p90/p99 per endpoint, errors, stream
 * events received against expected, the heights' progress, and this process's RSS and heap
 * sampled every second (last third against first third). Exits 1 when a check fails.
 *
 * The warm-up fills the service's bounded structures first, so that memory is judged only once
 * nothing is still filling up to its bound: heights every LOAD_WARMUP_BLOCK_MS (20), without
 * clients, until the stream's replay buffer is full; then the clients for LOAD_WARMUP_SECONDS at
 * least and until the answer cache is full (LOAD_MAX_WARMUP_SECONDS, 600, in all at most).
 *
 * Where heights come from (LOAD_FEED): `log` (default) appends a block to the embedded log every
 * LOAD_BLOCK_MS (500) over the bundled sample chain; `chain` runs `npm start` itself following a
 * node (the reference chain on loopback, or COMET_RPC_URL, COSMOS_REST_URL, EVM_RPC_URL). The
 * per-IP rate limit is lifted, since every client comes from 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { percentile } from "../bench/table.ts";
import { type MemorySample, trendOf } from "../lib/memory-trend.ts";
import { freePort } from "../lib/net.ts";
import { spawnTs } from "../lib/spawn-ts.ts";
import { type Bounded, followChain, pacedLog } from "./targets.ts";

const cpus = availableParallelism();
const FEED = process.env.LOAD_FEED ?? "log";
const MAX_STALL = Number(process.env.LOAD_MAX_STALL_SECONDS ?? 30);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WARMUP = Number(process.env.LOAD_WARMUP_SECONDS ?? 60);
const MAX_WARMUP = Number(process.env.LOAD_MAX_WARMUP_SECONDS ?? 600);
const BLOCK_MS = Number(process.env.LOAD_BLOCK_MS ?? 500);
const WARMUP_BLOCK_MS = Number(process.env.LOAD_WARMUP_BLOCK_MS ?? 20);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 200);
const STREAM_CLIENTS = Number(process.env.LOAD_STREAM_CLIENTS ?? 500);
const comet = process.env.COMET_RPC_URL ?? "http://127.0.0.1:26657";

const say = (m: string) => process.stderr.write(`[load] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const getJson = async (url: string) => (await (await fetch(url)).json()) as any;

// LOAD_DATA_DIR (chain feed): a data directory of an earlier run, to resume instead of ingesting
// from height 1.
const dataDir = process.env.LOAD_DATA_DIR || mkdtempSync(join(tmpdir(), "load-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const api = `${base}/api/1.0`;
if (FEED === "chain")
  try {
    await fetch(`${comet}/status`);
  } catch {
    say(
      `no node answers at ${comet}: start the reference chain (npm run chain:start) or set COMET_RPC_URL`,
    );
    process.exit(2);
  }
const target =
  FEED === "chain" ? followChain(dataDir, port, comet) : await pacedLog(dataDir, port, BLOCK_MS);
say(`starting ${target.describe} in ${dataDir}`);

/** The projected height, once the API answers. */
const apiHeight = async () => {
  try {
    const r = await fetch(`${api}/blocks/latest`);
    return r.status === 200 ? Number(((await r.json()) as { height: number }).height) : 0;
  } catch {
    return 0;
  }
};
/** Until the service has projected what the source holds (within 3 heights). */
const catchUp = async () => {
  const t0 = Date.now();
  for (;;) {
    const [h, head] = await Promise.all([apiHeight(), target.head()]);
    if (h > 0 && head - h <= 3) return (Date.now() - t0) / 1000;
    if (Date.now() - t0 > 15 * 60_000)
      throw new Error(`not caught up after 15 minutes (${h} of ${head})`);
    await sleep(1000);
  }
};
say(`caught up with the source in ${(await catchUp()).toFixed(0)} s`);

// The mix: hot pages, lookups of records that exist, filtered lists, search, deep pages.
const head = await apiHeight();
const txs = (await getJson(`${api}/txs?limit=100`)).docs as any[];
const tokens = (await getJson(`${api}/tokens?limit=100`)).docs as any[];
const accounts = [...new Set(txs.flatMap((t) => t.addresses as string[]))].slice(0, 50);
const pick = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
const rnd = (n: number) => 1 + Math.floor(Math.random() * n);
const mix: Record<string, string[]> = {
  "/blocks/latest": [`${api}/blocks/latest`],
  "/stat": [`${api}/stat`],
  "/txs?limit=10": [`${api}/txs?limit=10`],
  "/validators": [`${api}/validators`],
  "/blocks/{height}": pick(200, () => `${api}/blocks/${rnd(head)}`),
  "/blocks?page=…": pick(50, () => `${api}/blocks?limit=20&page=${rnd(Math.floor(head / 20))}`),
  "/txs/{hash}": txs.map((t) => `${api}/txs/${t.txhash}`),
  "/txs?address=…": accounts.map((a) => `${api}/txs?address=${a}&limit=20`),
  "/addresses/{address}": accounts.map((a) => `${api}/addresses/${a}`),
  "/token-transfers?address=…": accounts.map((a) => `${api}/token-transfers?address=${a}`),
  "/event-logs?contractAddress=…": tokens.map(
    (t) => `${api}/event-logs?contractAddress=${t.contractAddress}`,
  ),
  "/tokens": [`${api}/tokens`, `${api}/tokens?sort=-holderCount`],
  "/search?value=…": [
    ...pick(20, () => `${api}/search?value=${rnd(head)}`),
    ...tokens.map((t) => `${api}/search?value=${t.contractAddress}`),
  ],
};
for (const [label, urls] of Object.entries(mix))
  if (urls.length === 0)
    throw new Error(`no URL for ${label}: is the chain's activity scenario in it?`);
const mixFile = join(dataDir, "mix.json");
writeFileSync(mixFile, JSON.stringify(mix));

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const runHttp = (seconds: number) =>
  new Promise<any>((resolve, reject) => {
    const child = spawnTs(here("./http-load.ts"), [mixFile, String(CLIENTS), String(seconds)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.trim())) : reject(new Error(`http-load exited ${code}`)),
    );
  });

// Memory is judged on the measured run alone, so the warm-up ends only once the service's
// bounded structures are full. While a cache or buffer is still filling towards its bound, the
// heap grows just as it would with a leak: at these rates the 64 MB answer cache takes two to
// three minutes of requests to fill, and the stream's replay buffer (the last 1,000 heights'
// events, about 25 KB of heap a height here) eight minutes of 500 ms blocks. A fixed 60 s
// warm-up judged their filling as growth (heap snapshots 150 s apart: the new objects held by
// StreamHub.buffer and the answer cache's Lru, nothing else). Heights first, fast and without
// clients (under 200 clients every new height recomputes the hot answers, and a fast pace
// starves both); then the clients at the usual pace.
const bounded = () =>
  target.bounded().map((b) => `${b.name} ${b.state}${b.full ? "" : " (filling)"}`);
const filling = (by: Bounded["filledBy"]) =>
  target.bounded().some((b) => b.filledBy === by && !b.full);
const warmupStart = Date.now();
const warmed = () => (Date.now() - warmupStart) / 1000;
if (target.pace && filling("heights")) {
  say(
    `warm-up: a block every ${WARMUP_BLOCK_MS} ms, no clients, until ${target
      .bounded()
      .filter((b) => b.filledBy === "heights")
      .map((b) => `the ${b.name} (${b.state})`)
      .join(" and ")} is full`,
  );
  target.pace(WARMUP_BLOCK_MS);
  while (filling("heights") && warmed() < MAX_WARMUP) await sleep(1000);
  target.pace(BLOCK_MS);
  await catchUp();
}
// The stream clients come after the fast heights (dozens of events a second for each of them
// would starve their process and the server would drop them).
say(`${STREAM_CLIENTS} stream clients connecting`);
const stream = spawnTs(here("../bench/stream-clients.ts"), [base, String(STREAM_CLIENTS)], {
  stdio: ["pipe", "pipe", "inherit"],
});
let streamOut = "";
stream.stdout?.on("data", (d: Buffer) => {
  streamOut += d.toString();
});
while (!streamOut.includes("ready")) await sleep(100);

say(
  `warm-up: ${CLIENTS} HTTP clients for at least ${WARMUP} s and until the bounded structures are full (at most ${MAX_WARMUP} s of warm-up in all)`,
);
const clientsStart = warmed();
while (
  warmed() < MAX_WARMUP &&
  (warmed() - clientsStart < WARMUP || target.bounded().some((b) => !b.full))
) {
  await runHttp(Math.max(10, Math.min(30, WARMUP - (warmed() - clientsStart))));
  say(`warm-up ${warmed().toFixed(0)} s: ${bounded().join("; ")}`);
}
const warmupSeconds = warmed();
await catchUp();
const filledAtStart = target.bounded();

const h0 = await apiHeight();
say(`measuring: ${CLIENTS} HTTP clients for ${SECONDS} s from height ${h0}`);
const samples: MemorySample[] = [];
const heights: { t: number; head: number; taken: number; projected: number }[] = [];
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const cpu0 = process.cpuUsage();
const load0 = loadavg()[0]!;
const tm = performance.now();
/** With --expose-gc (as `npm run load` runs), memory is sampled after a full GC every 5 s: what is
 * retained, not where the collector happens to be in its cycle. */
const gc = (globalThis as { gc?: () => void }).gc;
let tick = 0;
const sampler = setInterval(() => {
  const t = (performance.now() - tm) / 1000;
  void Promise.all([apiHeight(), target.head()]).then(([projected, head]) =>
    heights.push({ t, head, taken: target.taken(), projected }),
  );
  if (gc && tick++ % 5 !== 0) return;
  gc?.();
  const m = process.memoryUsage();
  samples.push({
    t,
    rss: m.rss / 2 ** 20,
    heapUsed: m.heapUsed / 2 ** 20,
    external: m.external / 2 ** 20,
  });
}, 1000);
const http = await runHttp(SECONDS);
clearInterval(sampler);
loop.disable();
const cpu = process.cpuUsage(cpu0);
const cpuCores = (cpu.user + cpu.system) / 1e6 / ((performance.now() - tm) / 1000);
const load1 = loadavg()[0]!;
await sleep(3000); // heights projected at the end reach the clients
const h1 = await apiHeight();
const lagAtEnd = (await target.head()) - h1;
const filledAtEnd = target.bounded();
streamOut = "";
stream.stdin?.write(`done ${h1}\n`); // after the events of h1 reached every client (30 s at most)
await new Promise((r) => stream.once("exit", r));
const arrivals = JSON.parse(streamOut.trim().split("\n").at(-1)!) as Record<string, number[]>;
await target.close();

// Report.
let received = 0;
let duplicates = 0;
const short: string[] = [];
for (let h = h0 + 1; h <= h1; h++) {
  const got = arrivals[h]?.length ?? 0;
  received += Math.min(got, STREAM_CLIENTS);
  duplicates += Math.max(0, got - STREAM_CLIENTS);
  if (got < STREAM_CLIENTS) short.push(`${h} (${got})`);
}
const expected = STREAM_CLIENTS * (h1 - h0);
// The longest time the projected height stood still while the load ran.
let stall = 0;
for (let i = 1, since = heights[0]?.t ?? 0; i < heights.length; i++) {
  if (heights[i]!.projected > heights[i - 1]!.projected) since = heights[i]!.t;
  stall = Math.max(stall, heights[i]!.t - since);
}
const errors = Object.values(http.endpoints as Record<string, { errors: number }>).reduce(
  (a, e) => a + e.errors,
  0,
);
const rss = trendOf(samples, (s) => s.rss);
const heap = trendOf(samples, (s) => s.heapUsed);
const external = trendOf(samples, (s) => s.external ?? 0);
const f = (x: number) => x.toFixed(1);
const rows = Object.entries(http.endpoints as Record<string, any>).map(
  ([label, e]) =>
    `| ${label} | ${e.requests} | ${f(e.requests / http.seconds)} | ${f(e.p50)} | ${f(e.p90)} | ${f(e.p99)} | ${e.errors} |`,
);
const perSecond = (http.perSecond as number[]).slice(0, Math.floor(http.seconds));
const report = [
  `load: ${CLIENTS} HTTP clients and ${STREAM_CLIENTS} stream clients for ${f(http.seconds)} s against ${target.describe} (heights ${h0 + 1}…${h1} arrived meanwhile)`,
  "",
  "| endpoint | requests | req/s | p50 ms | p90 ms | p99 ms | errors |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...rows,
  `| all | ${http.requests} | ${f(http.requests / http.seconds)} | ${f(http.p50)} | ${f(http.p90)} | ${f(http.p99)} | ${errors} |`,
  "",
  `requests per second over the run: min ${Math.min(...perSecond)}, median ${percentile(perSecond, 50)}, max ${Math.max(...perSecond)}`,
  `heights: source ${heights[0]?.head} → ${heights.at(-1)?.head}, taken in ${heights[0]?.taken} → ${heights.at(-1)?.taken}, projected ${h0} → ${h1}; longest stall of the projected height ${f(stall)} s; ${lagAtEnd} behind the source at the end`,
  `this process: ${f(cpuCores)} cores busy on average; event-loop delay p50 ${f(loop.percentile(50) / 1e6)} ms, p99 ${f(loop.percentile(99) / 1e6)} ms, max ${f(loop.max / 1e6)} ms; machine load average ${f(load0)} → ${f(load1)} (${cpus} cores)`,
  `stream: ${received} of ${expected} new-block events received (${STREAM_CLIENTS} clients × ${h1 - h0} heights), ${duplicates} duplicates${short.length ? `; heights short of ${STREAM_CLIENTS}: ${short.slice(0, 10).join(", ")}${short.length > 10 ? ", …" : ""}` : ""}`,
  `bounded structures at the start of the measured run: ${filledAtStart.map((b) => `${b.name} ${b.state}`).join("; ") || "not visible in this mode"}; at the end: ${filledAtEnd.map((b) => `${b.name} ${b.state}`).join("; ") || "-"} (warm-up ${f(warmupSeconds)} s)`,
  `memory (this process: the service with chDB), ${samples.length} samples${gc ? " after a full GC" : ""}: RSS ${f(rss.first)} → ${f(rss.last)} MiB (growth ${f(rss.growth)}, noise ${f(rss.noise)}, slope ${f(rss.slopePerMinute)} MiB/min: ${rss.steady ? "steady" : "GROWING"}); heap ${f(heap.first)} → ${f(heap.last)} MiB (growth ${f(heap.growth)}, noise ${f(heap.noise)}, slope ${f(heap.slopePerMinute)} MiB/min: ${heap.steady ? "steady" : "GROWING"}); outside the JS heap (Buffers) ${f(external.first)} → ${f(external.last)} MiB; the rest of RSS is native (chDB)`,
];
process.stdout.write(`${report.join("\n")}\n`);
if (process.env.LOAD_OUT)
  writeFileSync(
    process.env.LOAD_OUT,
    JSON.stringify({ http, h0, h1, heights, received, expected, duplicates, samples, rss, heap }),
  );
const failed = [
  errors > 0 && `${errors} HTTP errors`,
  h1 <= h0 && "no new height arrived during the run",
  stall > MAX_STALL &&
    `the projected height stood still for ${f(stall)} s (LOAD_MAX_STALL_SECONDS ${MAX_STALL})`,
  received < expected && `${expected - received} stream events missing`,
  duplicates > 0 && `${duplicates} duplicate stream events`,
  filledAtStart.some((b) => !b.full) &&
    `the warm-up ended (LOAD_MAX_WARMUP_SECONDS ${MAX_WARMUP}) with ${filledAtStart
      .filter((b) => !b.full)
      .map((b) => b.name)
      .join(" and ")} still filling: the memory figures cannot tell a leak from that`,
  !rss.steady && "RSS grew beyond noise",
  !heap.steady && "heap grew beyond noise",
].filter(Boolean);
say(failed.length ? `FAILED: ${failed.join("; ")}` : "all checks passed");
process.exit(failed.length ? 1 : 0);
