#!/usr/bin/env -S node --import tsx
import type { ClickHouseClient } from "@clickhouse/client";
import { openLogPatiently, projectedSubject, type RawLog } from "@explorer/raw-log";
import {
  callbackWarner,
  closing,
  LoggingLive,
  log as logger,
  type ReadyCheck,
  reportFailure,
  runMain,
  Settings,
  serveAdmin,
} from "@explorer/service";
import { asExplorerError, isRetryable, Retryable } from "@explorer/service/errors";
import {
  currentSet,
  migrate,
  openClickHouse,
  parseStoreUrl,
  repointViews,
  setDb,
  switchSet,
} from "@explorer/store";
import { connect } from "@nats-io/transport-node";
import { Context, Effect, Layer, Metric, Schedule } from "effect";
import { checksums } from "./checksums.ts";
import { ProjectorConfig } from "./config.ts";

import { projectLog } from "./project.ts";
import { reindex } from "./reindex.ts";
import { openCurrentSet } from "./table-set.ts";
import { NOTHING_PROJECTED, type Progress, readProgress, TABLES } from "./writer.ts";

export class Store extends Context.Service<Store, ClickHouseClient>()("projector/Store") {
  static readonly layer = Layer.effect(
    Store,
    Effect.gen(function* () {
      const cfg = yield* ProjectorConfig;
      return Store.of(
        yield* Effect.acquireRelease(
          Effect.promise(() => openClickHouse(parseStoreUrl(cfg.storeUrl))),
          (c) => closing("the store", () => c.close()),
        ),
      );
    }),
  );
}

export class Log extends Context.Service<Log, RawLog>()("projector/Log") {
  static readonly layer = Layer.effect(
    Log,
    Effect.gen(function* () {
      const cfg = yield* ProjectorConfig;
      const warn = yield* callbackWarner;
      return Log.of(
        // Waiting for the log can take a while (a NATS server starting): a stop ends the wait.
        yield* Effect.acquireRelease(
          Effect.promise((signal) =>
            openLogPatiently(
              cfg,
              (m, next) => warn(`waiting for the log (next try in ${next} ms): ${m}`),
              signal,
            ),
          ),
          (l) => closing("the log", () => l.close()),
          { interruptible: true },
        ),
      );
    }),
  );
}

/**
 * The store, the log or a worker failed while projecting (a failure of ClickHouse's or NATS's
 * client, a worker that died): retried, and the run resumes from the last projected height.
 */
export class ProjectionFailure extends Retryable {
  override readonly name = "ProjectionFailure";
}

export const metrics = {
  projected: Metric.gauge("projector_projected_height", {
    description: "height fully in the tables",
  }),
  blocks: Metric.counter("projector_blocks_total", { incremental: true }),
  txs: Metric.gauge("projector_txs_total"),
};

/**
 * Follows the log into the current table set. When a re-index switches the set, it goes on in the
 * new one. ClickHouse failures are retried with backoff; the resumed run re-reads from the last
 * projected height, and replayed rows collapse, so nothing is lost or doubled.
 */
export const followWith = (announce?: (p: Progress) => void) =>
  Effect.gen(function* () {
    const cfg = yield* ProjectorConfig;
    const ch = yield* Store;
    const log = yield* Log;
    const options = {
      prefix: cfg.prefix,
      nativeDenoms: cfg.nativeDenoms,
      batchBlocks: cfg.batchBlocks,
      batchIdleMs: cfg.batchIdleMs,
      batchBytes: cfg.batchBytes,
      workers: cfg.workers,
    };
    // A replay from the start that fails and is retried goes on from the last batch it wrote:
    // the store's progress is still the earlier run's, higher (it would skip the blocks between).
    let from: Progress | undefined = cfg.fromStart ? NOTHING_PROJECTED : undefined;
    for (;;) {
      const { set, db } = yield* Effect.tryPromise(() => openCurrentSet(ch, cfg.storeDb));
      yield* Effect.logInfo(`projecting ${log.describe} into ${db}`);
      yield* Effect.tryPromise({
        try: (signal) =>
          projectLog(ch, db, log, {
            ...options,
            follow: cfg.follow,
            from,
            signal,
            onProjected: (p, n) => {
              if (from) from = p; // a retry after this batch resumes from it
              Effect.runSync(
                Metric.update(metrics.projected, p.height).pipe(
                  Effect.andThen(Metric.update(metrics.blocks, n)),
                  Effect.andThen(Metric.update(metrics.txs, p.txsTotal)),
                ),
              );
              announce?.(p);
            },
            shouldStop: async () => (await currentSet(ch, cfg.storeDb)) !== set,
          }),
        // what is not one of ours comes from the store's or the log's client or a worker that
        // died: an outage, retried
        catch: (e) => asExplorerError(e, ProjectionFailure),
      }).pipe(
        Effect.tapError((e) =>
          isRetryable(e)
            ? Effect.logWarning(`projection failed, retrying: ${e.message}`)
            : Effect.void,
        ),
        Effect.retry({
          schedule: Schedule.exponential("500 millis").pipe(
            Schedule.jittered,
            Schedule.upTo({ times: 10 }),
          ),
          // a record that cannot be projected fails the same way every time (RecordError: Fatal)
          while: isRetryable,
        }),
      );
      from = undefined; // a set switched to goes on from its own progress
      if (!cfg.follow && (yield* Effect.tryPromise(() => currentSet(ch, cfg.storeDb))) === set)
        return;
    }
  });

/** Ready when the store and the log answer; reports the projected height and the lag behind the log. */
export const projectorChecks = (ch: ClickHouseClient, log: RawLog, base: string): ReadyCheck[] => [
  {
    name: "store",
    check: async () => {
      const set = await currentSet(ch, base);
      const projected = set === undefined ? 0 : (await readProgress(ch, setDb(base, set))).height;
      const head = (await log.lastHeight().catch(() => undefined)) ?? projected;
      return { tableSet: set ?? null, projected, lag: Math.max(0, head - projected) };
    },
  },
  {
    name: "log",
    check: async () => ({ log: log.describe, height: (await log.lastHeight()) ?? 0 }),
  },
];

/** Follows the log; "projected up to H" goes to the metrics and, with NATS, to `explorer.<chain>.projected`. */
export const follow = Effect.gen(function* () {
  const cfg = yield* ProjectorConfig;
  yield* serveAdmin({
    port: cfg.metricsPort,
    host: cfg.metricsHost,
    ready: projectorChecks(yield* Store, yield* Log, cfg.storeDb),
  });
  if (cfg.backend !== "nats") return yield* followWith();
  const nc = yield* Effect.acquireRelease(
    // Reconnects for as long as it runs: nats.js gives up after 10 attempts by default, and then
    // every announcement would throw after its batch was written.
    Effect.promise(() =>
      connect({ servers: cfg.natsUrl, name: "explorer-projector", maxReconnectAttempts: -1 }),
    ),
    (c) => closing("NATS", () => c.drain()),
  );
  const subject = projectedSubject(cfg.chainId);
  // Best effort: an announcement that cannot go out is logged; the tables are written, and the
  // next announcement carries the stream on (it catches up to the highest height announced).
  return yield* followWith((p) => {
    try {
      nc.publish(subject, JSON.stringify(p));
    } catch (e) {
      logger.warn("projected height not announced", { height: p.height, error: String(e) });
    }
  });
});

/** Prints each table's row count and content checksum (after collapsing replayed rows), as JSON. */
export const checksumsProgram = Effect.gen(function* () {
  const cfg = yield* ProjectorConfig;
  const ch = yield* Store;
  const { db } = yield* Effect.tryPromise(() => openCurrentSet(ch, cfg.storeDb));
  const sums = yield* Effect.tryPromise(() => checksums(ch, db));
  process.stdout.write(`${JSON.stringify(sums)}\n`);
});

export const ProjectorLive = Layer.mergeAll(Store.layer, Log.layer);

/**
 * The projector's parts over a store and a log its caller opened (and closes): the one-process
 * start, the load targets, tests. `settings` says which table set, how to batch, whether to follow.
 */
export const projectorParts = <E, R>(
  ch: ClickHouseClient,
  log: RawLog,
  settings: Layer.Layer<Settings, E, R>,
) => Layer.mergeAll(Layer.succeed(Store, Store.of(ch)), Layer.succeed(Log, Log.of(log)), settings);

/** Re-indexes the configured store from the log (see reindex.ts); `say` gets its progress lines. */
export const reindexWith = (say?: (line: string) => void) =>
  Effect.gen(function* () {
    const cfg = yield* ProjectorConfig;
    const ch = yield* Store;
    const log = yield* Log;
    const stop = new AbortController();
    const running = reindex(
      ch,
      cfg.storeDb,
      log,
      {
        prefix: cfg.prefix,
        nativeDenoms: cfg.nativeDenoms,
        batchBlocks: cfg.batchBlocks,
        batchIdleMs: cfg.batchIdleMs,
        batchBytes: cfg.batchBytes,
        workers: cfg.workers,
        signal: stop.signal,
      },
      say,
    );
    // Interrupted (a stop), the replay is told to stop and waited for: it ends after the batch it
    // is writing and lets its lock go, before the store is closed under it.
    return yield* Effect.tryPromise(() => running).pipe(
      Effect.onInterrupt(() =>
        Effect.promise(() => {
          stop.abort();
          return running.catch(() => undefined);
        }),
      ),
    );
  });

export const reindexProgram = reindexWith();

/** Creates the current table set if there is none and applies the migrations it lacks. */
export const migrateProgram = Effect.gen(function* () {
  const cfg = yield* ProjectorConfig;
  const ch = yield* Store;
  const existing = yield* Effect.tryPromise(() => currentSet(ch, cfg.storeDb));
  const set = existing ?? 1;
  const db = setDb(cfg.storeDb, set);
  const applied = yield* Effect.tryPromise(() => migrate(ch, db));
  if (existing === undefined)
    yield* Effect.tryPromise(async () => {
      await switchSet(ch, cfg.storeDb, set);
      await repointViews(ch, cfg.storeDb, set, TABLES);
    });
  yield* Effect.logInfo(
    applied.length
      ? `${db}: applied ${applied.join(", ")}`
      : `${db}: every migration was already applied`,
  );
  return applied;
});

if (import.meta.url === `file://${process.argv[1]}`) {
  const program =
    process.argv[2] === "reindex"
      ? reindexProgram
      : process.argv[2] === "checksums"
        ? checksumsProgram
        : follow;
  // Every failure, a bad setting and a close's among them, is reported once by reportFailure, in
  // the project's logger (runMain's own report went to Effect's default logger, on stdout).
  runMain(
    Effect.scoped(program).pipe(
      Effect.provide(ProjectorLive),
      Effect.provide(Settings.fromEnv),
      reportFailure("projector"),
      Effect.provide(LoggingLive),
    ),
    { disableErrorReporting: true },
  );
}
