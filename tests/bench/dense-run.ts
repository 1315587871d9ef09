import { rmSync } from "node:fs";
import { join } from "node:path";
import { chainDir, endpoints, nodePorts } from "@explorer/infra";
import { ingest, Log, Node, type Readers } from "@explorer/ingester";
import { Settings, settingsFromEnv } from "@explorer/service";
import { Effect, Layer } from "effect";
import { type DenseResult, readDense, runDense } from "../workload/dense.ts";
import { dirBytes } from "./dir-bytes.ts";

/** Heights ingested at a time, as the ingester does by default. */
export const INGEST_CONCURRENCY = 8;

/**
 * The chain's dense run (tests/workload): made when the bench started the chain itself, else
 * refused with the command that makes it.
 */
export const denseRun = async (started: boolean): Promise<DenseResult> => {
  const dense = readDense();
  if (dense) return dense;
  if (!started)
    throw new Error(
      "the running reference chain has no dense workload: run `npm run workload` first (or stop the chain and let this bench start one)",
    );
  const e = endpoints(nodePorts(0));
  return runDense({ cometRpc: e.cometRpc, evmRpc: e.evmRpc });
};

/** Where the ingest bench keeps its last log of a dense run (in the chain's data: it goes with it). */
export const denseLogDir = (d: DenseResult): string =>
  join(chainDir(), `dense-log-${d.fromHeight}-${d.toHeight}`);

/** Ingests heights start..stop into a new log at `dir` (emptied first); its wall time and size. */
export const ingestRange = (readers: Readers, start: number, stop: number, dir: string) =>
  ingestWith(readers, start, stop, dir, INGEST_CONCURRENCY);

export const ingestWith = async (
  readers: Readers,
  start: number,
  stop: number,
  dir: string,
  concurrency: number,
) => {
  rmSync(dir, { recursive: true, force: true });
  const settings = settingsFromEnv({
    LOG_DIR: dir,
    START_HEIGHT: String(start),
    STOP_HEIGHT: String(stop),
    INGEST_CONCURRENCY: String(concurrency),
    PROGRESS: "false",
    METADATA_FETCH: "false",
  });
  const layer = Log.layer.pipe(Layer.provideMerge(Layer.succeed(Node, Node.of(readers))));
  const t0 = performance.now();
  await Effect.runPromise(
    ingest.pipe(Effect.provide(layer), Effect.provide(Settings.layer(settings))),
  );
  return { ms: performance.now() - t0, bytes: dirBytes(dir) };
};
