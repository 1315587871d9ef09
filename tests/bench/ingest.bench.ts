import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainStart, endpoints, isNodeRunning, nodePorts, referenceChain } from "@explorer/infra";
import { ingest, Log, makeReaders, Node, type Readers } from "@explorer/ingester";
import { Settings, settingsFromEnv } from "@explorer/service";
import { Effect, Layer } from "effect";
import { type Figure, median } from "./table.ts";

/**
 * Ingest throughput from the reference chain, against the rate at which the same node answers the
 * very same calls with nothing around them, measured alternately in one run (3 rounds each, medians).
 *
 * Recording: during an ingest pass every top-level reader call (method and arguments) is noted by
 * height; the baseline replays those calls height by height with the same concurrency (8 heights
 * at a time, all calls of a height at once), discarding the answers.
 */
type Call = { target: "comet" | "rest" | "evm"; method: string; args: unknown[] };

const recording = (r: Readers, calls: Map<number, Call[]>): Readers => {
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
          return v.apply(obj, args);
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

const ingestOnce = async (readers: Readers, stop: number) => {
  const dir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
  const settings = settingsFromEnv({
    LOG_DIR: dir,
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
  rmSync(dir, { recursive: true, force: true });
  return ms;
};

const replayOnce = async (readers: Readers, calls: Map<number, Call[]>, stop: number) => {
  const heights = Array.from({ length: stop }, (_, i) => i + 1);
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

export const run = async (): Promise<Figure[]> => {
  if (!isNodeRunning(0)) await chainStart();
  const e = endpoints(nodePorts(0));
  const readers = makeReaders({
    cometRpc: e.cometRpc,
    rest: e.rest,
    evmRpc: e.evmRpc,
    prefix: referenceChain.bech32Prefix,
  });
  const stop = Math.min((await readers.comet.status()).latestHeight, 2000);
  let txs = 0;
  for (let h = 1; h <= stop; h += 1)
    txs +=
      ((await readers.comet.block(h)).block as { data: { txs: unknown[] | null } }).data.txs
        ?.length ?? 0;
  const calls = new Map<number, Call[]>();
  await ingestOnce(recording(readers, calls), stop); // warm-up pass that records the calls
  const ingestMs: number[] = [];
  const nodeMs: number[] = [];
  for (let round = 0; round < 3; round++) {
    nodeMs.push(await replayOnce(readers, calls, stop));
    ingestMs.push(await ingestOnce(readers, stop));
  }
  readers.close();
  const ingestBps = stop / (median(ingestMs) / 1000);
  const nodeBps = stop / (median(nodeMs) / 1000);
  const note = `${stop} blocks, ${txs} txs, concurrency ${CONCURRENCY}, median of 3`;
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
  ];
};
