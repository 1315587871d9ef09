import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainStart, endpoints, isNodeRunning, nodePorts, referenceChain } from "@explorer/infra";
import { ingest, Log, makeReaders, Node, type Readers } from "@explorer/ingester";
import { Settings, settingsFromEnv } from "@explorer/service";
import { Effect, Layer } from "effect";
import { readDense, runDense } from "../workload/dense.ts";
import { dirBytes } from "./dir-bytes.ts";
import { type Figure, median } from "./table.ts";

/**
 * Ingest throughput over the dense workload's blocks (tests/workload: ≥ 500 blocks of ≥ 50 txs),
 * against the rate at which the same node answers the very same calls with nothing around them,
 * measured alternately in one run (3 rounds each, medians). A chain this bench starts is given its
 * workload (EXPLORER_BLOCK_TIME=1s, ~10 min); one already running without it is refused.
 *
 * Recording: during an ingest pass every top-level reader call (method and arguments) is noted by
 * height; the baseline replays those calls height by height with the same concurrency (8 heights
 * at a time, all calls of a height at once), discarding the answers.
 */
type Call = { target: "comet" | "rest" | "evm"; method: string; args: unknown[] };

/** Time spent waiting for the node, by target (top-level calls, summed over concurrent calls). */
type Waits = Record<Call["target"], number>;

const recording = (r: Readers, calls: Map<number, Call[]>, waits?: Waits): Readers => {
  const wrap = <T extends object>(target: Call["target"], o: T): T =>
    new Proxy(o, {
      get(obj, key, recv) {
        const v = Reflect.get(obj, key, recv);
        if (typeof v !== "function" || typeof key !== "string" || key === "call" || key === "send")
          return v;
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

const CONCURRENCY = 8;

const ingestOnce = async (readers: Readers, start: number, stop: number) => {
  const dir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
  const settings = settingsFromEnv({
    LOG_DIR: dir,
    START_HEIGHT: String(start),
    STOP_HEIGHT: String(stop),
    INGEST_CONCURRENCY: String(CONCURRENCY),
    PROGRESS: "false",
    METADATA_FETCH: "false",
  });
  const layer = Log.layer.pipe(Layer.provideMerge(Layer.succeed(Node, Node.of(readers))));
  const t0 = performance.now();
  await Effect.runPromise(
    ingest.pipe(Effect.provide(layer), Effect.provide(Settings.layer(settings))),
  );
  const ms = performance.now() - t0;
  const bytes = dirBytes(dir);
  rmSync(dir, { recursive: true, force: true });
  return { ms, bytes };
};

const replayOnce = async (
  readers: Readers,
  calls: Map<number, Call[]>,
  start: number,
  stop: number,
) => {
  const heights = Array.from({ length: stop - start + 1 }, (_, i) => start + i);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < heights.length) {
        const h = heights[next++]!;
        await Promise.all(
          (calls.get(h) ?? []).map((c) =>
            (readers[c.target] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
              c.method
            ]!(...c.args),
          ),
        );
      }
    }),
  );
  return performance.now() - t0;
};

/** The dense run of the chain: made when this bench started the chain, else refused if absent. */
const denseRange = async (started: boolean, e: ReturnType<typeof endpoints>) => {
  const dense = readDense();
  if (dense) return dense;
  if (!started)
    throw new Error(
      "the running reference chain has no dense workload: run `npm run workload` first (or stop the chain and let this bench start one)",
    );
  return runDense({ cometRpc: e.cometRpc, evmRpc: e.evmRpc });
};

const TARGET_BLOCKS = 10_000_000;

export const run = async (): Promise<Figure[]> => {
  const started = !isNodeRunning(0);
  if (started) {
    process.env.EXPLORER_BLOCK_TIME ??= "1s";
    await chainStart();
  }
  const e = endpoints(nodePorts(0));
  const dense = await denseRange(started, e);
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
  const cpu0 = process.cpuUsage();
  // warm-up pass that records the calls and the time spent waiting on each part of the node
  const first = await ingestOnce(recording(readers, calls, waits), start, stop);
  const cpu = process.cpuUsage(cpu0);
  const ingestMs: number[] = [];
  const nodeMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    nodeMs.push(await replayOnce(readers, calls, start, stop));
    ingestMs.push((await ingestOnce(readers, start, stop)).ms);
  }
  readers.close();
  const ingestBps = blocks / (median(ingestMs) / 1000);
  const nodeBps = blocks / (median(nodeMs) / 1000);
  const note = `heights ${start}..${stop}: ${blocks} blocks, ${txs} txs, concurrency ${CONCURRENCY}, median of 3`;
  const perBlock = (ms: number) => ms / blocks;
  const wall = first.ms;
  const where = `warm-up pass, ${Math.round(perBlock(wall))} ms/block wall`;
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
      note: `raw-block log directory after ingesting ${blocks} blocks (${first.bytes} bytes)`,
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
