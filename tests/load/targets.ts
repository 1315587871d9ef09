import { once } from "node:events";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { attachStream, buildApi, inProcessSource } from "@explorer/api";
import { sampleLog, start } from "@explorer/explorer";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { followWith, projectorParts } from "@explorer/projector";
import { encodeRecord } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { Settings } from "@explorer/service";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Effect, Fiber, Logger } from "effect";
import { PrometheusMetrics } from "effect/observability";
import { copyAt, denseTemplate } from "../bench/synthetic-log.ts";

/** A structure of the service that grows to a bound and stays there (a cache, a buffer). */
export interface Bounded {
  readonly name: string;
  /** What fills it: new heights, or the clients' requests. */
  readonly filledBy: "heights" | "requests";
  readonly full: boolean;
  /** How full, in words ("12.5 of 64 MiB, 3,000 of 20,000 entries"). */
  readonly state: string;
}

/** The service under load, running in this process, and where its new heights come from. */
export interface LoadTarget {
  readonly describe: string;
  /**
   * The service's bounded structures and how full they are (empty when the target cannot see
   * them): memory measured before they are full shows them filling, not a leak.
   */
  bounded(): Bounded[];
  /** Sets the pace of new heights (ms a block), where the target sets it. */
  pace?(ms: number): void;
  /** The newest height there is (the node's head; the last block appended to the log). */
  head(): Promise<number>;
  /** The newest height the service has taken in (ingested; appended). */
  taken(): number;
  close(): Promise<void>;
}

/** Every client comes from 127.0.0.1: the per-IP limit is lifted. */
const NO_LIMIT = 1_000_000_000;

/**
 * `npm start` itself (embedded: ingester, projector, chDB, REST API, stream) following a node.
 * The node's speed sets how fast heights arrive, and on a busy machine the node may be the
 * bottleneck (its own load shows in the report as the head the ingester sees).
 */
export const followChain = (dataDir: string, port: number, comet: string): LoadTarget => {
  Object.assign(process.env, {
    EXPLORER_DATA_DIR: dataDir,
    API_PORT: String(port),
    API_HOST: "127.0.0.1",
    COMET_RPC_URL: comet,
    RATE_LIMIT_PER_MINUTE: String(NO_LIMIT),
    PROGRESS: "false",
  });
  const fiber = Effect.runFork(
    Effect.scoped(start).pipe(
      Effect.provide(Settings.fromEnv),
      Effect.provide(Logger.layer([Logger.consolePretty()])),
    ),
  );
  const gauge = (name: string) =>
    Number(
      new RegExp(`explorer_ingester_${name}(?:\\{[^}]*\\})? (\\d+)`).exec(
        Effect.runSync(PrometheusMetrics.format({ prefix: "explorer" })),
      )?.[1] ?? 0,
    );
  return {
    describe: `\`npm start\` following ${comet}`,
    bounded: () => [],
    head: async () =>
      Number(
        ((await (await fetch(`${comet}/status`)).json()) as any).result.sync_info
          .latest_block_height,
      ),
    taken: () => gauge("ingested_height"),
    close: () => Effect.runPromise(Fiber.interrupt(fiber)),
  };
};

/**
 * The same pieces `npm start` wires (projector following the embedded log, chDB, REST API,
 * Socket.IO stream), over the bundled sample chain, with a new block appended to the log every
 * `blockMs`: copies, at new heights, of recorded blocks (5 transactions each). No node needed, and
 * heights arrive at a pace nothing else on the machine slows down.
 */
export const pacedLog = async (
  dataDir: string,
  port: number,
  blockMs: number,
): Promise<LoadTarget> => {
  const dir = join(dataDir, "log");
  mkdirSync(dir, { recursive: true });
  copyFileSync(sampleLog, join(dir, "log.dat"));
  const log = EmbeddedLog.open({ dir });
  const ch = await openClickHouse({ kind: "chdb", path: join(dataDir, "chdb") });
  await ensureCurrentSet(ch, "explorer");
  const source = inProcessSource();
  const projector = Effect.runFork(
    followWith((p) => source.announce(p.height)).pipe(
      Effect.provide(projectorParts(ch, log, Settings.fromEnv)),
    ),
  );
  const { app, runtime } = buildApi(ch, "explorer", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: NO_LIMIT,
    apiKeys: new Map(),
  });
  const server = app.listen(port, "127.0.0.1");
  await once(server, "listening");
  const stream = await attachStream(server, runtime, source, "cosmos");
  const template = denseTemplate(recordedBlocks().slice(2, 5));
  let fed = (await log.lastHeight()) ?? 0;
  let appending = Promise.resolve();
  const feed = (ms: number) =>
    setInterval(() => {
      appending = appending.then(async () => {
        await log.appendBlock(fed + 1, encodeRecord(copyAt(template, fed + 1)));
        fed += 1;
      });
    }, ms);
  let timer = feed(blockMs);
  return {
    describe: `the embedded service over the sample chain, a new block every ${blockMs} ms`,
    bounded: () => {
      const c = app.answerCache;
      const { buffered, bufferSize } = stream.hub;
      return [
        {
          // it evicts before the last answer fits: within 90 % of a bound is full
          name: "answer cache",
          filledBy: "requests",
          full: c.weight >= 0.9 * c.maxWeight || c.size >= 0.9 * c.maxEntries,
          state: `${(c.weight / 2 ** 20).toFixed(1)} of ${c.maxWeight / 2 ** 20} MiB, ${c.size} of ${c.maxEntries} entries`,
        },
        {
          name: "stream replay buffer",
          filledBy: "heights",
          full: buffered >= bufferSize,
          state: `${buffered} of ${bufferSize} heights`,
        },
      ];
    },
    pace: (ms) => {
      clearInterval(timer);
      timer = feed(ms);
    },
    head: async () => fed,
    taken: () => fed,
    close: async () => {
      clearInterval(timer);
      await appending;
      await stream.close();
      await new Promise((r) => server.close(r));
      await Effect.runPromise(Fiber.interrupt(projector));
      await runtime.dispose();
      await log.close();
      await ch.close();
    },
  };
};
