import { chainStart, endpoints, isNodeRunning, nodePorts, referenceChain } from "@explorer/infra";
import { makeReaders, type Readers } from "@explorer/ingester";
import { mapLimit } from "../lib/comet.ts";
import { denseLogDir, denseRun, INGEST_CONCURRENCY, ingestRange } from "./dense-run.ts";
import { type Figure, median } from "./table.ts";

/**
 * Ingest throughput over the dense workload's blocks (tests/workload: ≥ 500 blocks of ≥ 50 txs),
 * against the rate at which the same node answers the very same calls with nothing around them,
 * measured alternately in one run (BENCH_INGEST_ROUNDS, default 3, passes each; medians). A chain
 * this bench starts is given its workload (EXPLORER_BLOCK_TIME=1s, ~10 min); one already running
 * without it is refused. The last pass's log is kept in the chain's data for the rpc bench.
 *
 * Recording: during the first ingest pass every top-level reader call (method and arguments) is
 * noted by height; the baseline replays those calls height by height with the same concurrency (8
 * heights at a time, 16 calls of a height at once, without the ingester's phases), discarding the
 * answers.
 */

const progress = (m: string) => process.stderr.write(`[bench ingest] ${m}\n`);
type Call = { target: "comet" | "rest" | "evm"; method: string; args: unknown[] };

/** Time spent waiting for the node, by target (top-level calls, summed over concurrent calls). */
type Waits = Record<Call["target"], number>;

const recording = (r: Readers, calls: Map<number, Call[]>, waits?: Waits): Readers => {
  const wrap = <T extends object>(target: Call["target"], o: T): T =>
    new Proxy(o, {
      get(obj, key, recv) {
        const v = Reflect.get(obj, key, recv);
        // every method the ingester calls, eth_call (`call`, its token reads) among them; a
        // method's own inner calls go to the reader itself and are not counted twice
        if (typeof v !== "function" || typeof key !== "string") return v;
        return (...args: unknown[]) => {
          const h = args.find((a): a is number => typeof a === "number") ?? -1;
          const list = calls.get(h) ?? [];
          list.push({ target, method: key, args });
          calls.set(h, list);
          const t0 = performance.now();
          const out = v.apply(obj, args);
          if (waits && out instanceof Promise)
            return out.finally(() => {
              waits[target] += performance.now() - t0;
            });
          return out;
        };
      },
    });
  return {
    ...r,
    comet: wrap("comet", r.comet),
    rest: wrap("rest", r.rest),
    evm: wrap("evm", r.evm),
  };
};

const CONCURRENCY = INGEST_CONCURRENCY;
/**
 * Calls of one height in flight at once in the baseline: the ingester's own bound (its phase 1,
 * then 8 accounts and 8 tokens at a time beside the contracts), met or passed, so the bare node is
 * never given less room than the ingester. All of a dense height's ~100 account reads at once
 * (6 REST queries each, 8 heights at a time) time out at the node.
 */
const CALLS_PER_HEIGHT = 16;
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);

const replayOnce = async (
  readers: Readers,
  calls: Map<number, Call[]>,
  start: number,
  stop: number,
) => {
  const heights = Array.from({ length: stop - start + 1 }, (_, i) => start + i);
  const t0 = performance.now();
  await mapLimit(heights, CONCURRENCY, (h) =>
    mapLimit(calls.get(h) ?? [], CALLS_PER_HEIGHT, (c) =>
      (readers[c.target] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
        c.method
      ]!(...c.args),
    ),
  );
  return performance.now() - t0;
};

const TARGET_BLOCKS = 10_000_000;

export const run = async (): Promise<Figure[]> => {
  const started = !isNodeRunning(0);
  if (started) {
    process.env.EXPLORER_BLOCK_TIME ??= "1s";
    await chainStart();
  }
  const e = endpoints(nodePorts(0));
  const dense = await denseRun(started);
  const readers = makeReaders({
    cometRpc: e.cometRpc,
    rest: e.rest,
    evmRpc: e.evmRpc,
    prefix: referenceChain.bech32Prefix,
  });
  const { fromHeight: start, toHeight: stop, txs } = dense;
  const blocks = stop - start + 1;
  const calls = new Map<number, Call[]>();
  const waits: Waits = { comet: 0, rest: 0, evm: 0 };
  const logDir = denseLogDir(dense);
  const cpu0 = process.cpuUsage();
  // round 1's ingest pass records the calls and the time spent waiting on each part of the node
  const first = await ingestRange(recording(readers, calls, waits), start, stop, logDir);
  const cpu = process.cpuUsage(cpu0);
  progress(`ingest pass 1: ${(first.ms / 1000).toFixed(0)} s`);
  const ingestMs: number[] = [first.ms];
  const nodeMs: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    nodeMs.push(await replayOnce(readers, calls, start, stop));
    progress(`bare node pass ${round}: ${(nodeMs.at(-1)! / 1000).toFixed(0)} s`);
    if (round === ROUNDS) break;
    ingestMs.push((await ingestRange(readers, start, stop, logDir)).ms);
    progress(`ingest pass ${round + 1}: ${(ingestMs.at(-1)! / 1000).toFixed(0)} s`);
  }
  readers.close();
  const ingestBps = blocks / (median(ingestMs) / 1000);
  const nodeBps = blocks / (median(nodeMs) / 1000);
  const note = `heights ${start}..${stop}: ${blocks} blocks, ${txs} txs, concurrency ${CONCURRENCY}, median of ${ROUNDS}`;
  const perBlock = (ms: number) => ms / blocks;
  const wall = first.ms;
  const where = `pass 1, ${Math.round(perBlock(wall))} ms/block wall`;
  const days = (bps: number) => TARGET_BLOCKS / bps / 86_400;
  return [
    { bench: "ingest", metric: "ingester blocks/s", value: ingestBps, unit: "blocks/s", note },
    {
      bench: "ingest",
      metric: "ingester txs/s",
      value: txs / (median(ingestMs) / 1000),
      unit: "txs/s",
      note,
    },
    { bench: "ingest", metric: "node, same calls, bare", value: nodeBps, unit: "blocks/s", note },
    {
      bench: "ingest",
      metric: "ingester / bare node",
      value: ingestBps / nodeBps,
      unit: "ratio",
      note: "goal ≥ 0.8",
    },
    ...(["comet", "rest", "evm"] as const).map((t) => ({
      bench: "ingest",
      metric: `time waiting on ${t} calls`,
      value: waits[t] / CONCURRENCY / wall,
      unit: "share of wall",
      note: `${where}; calls overlap, so shares can add past 1`,
    })),
    {
      bench: "ingest",
      metric: "ingester CPU (decode, assemble, encode, log write)",
      value: perBlock((cpu.user + cpu.system) / 1000),
      unit: "ms/block",
      note: `${where}; this process's CPU, over ${blocks} blocks`,
    },
    {
      bench: "ingest",
      metric: "log record",
      value: first.bytes / txs,
      unit: "bytes/tx",
      note: `raw-block log directory after ingesting ${blocks} blocks (${first.bytes} bytes), kept in ${logDir} for the rpc bench`,
    },
    {
      bench: "ingest",
      metric: `backfill ${TARGET_BLOCKS / 1e6}M blocks of this density`,
      value: days(ingestBps),
      unit: "days",
      note: `one node, ${CONCURRENCY} heights at a time; the node's own share ${days(nodeBps).toFixed(1)} days (${((ingestBps / nodeBps) * 100).toFixed(0)}%)`,
    },
  ];
};
