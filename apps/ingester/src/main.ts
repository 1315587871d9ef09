#!/usr/bin/env -S node --import tsx
import {
  LoggingLive,
  publicUrl,
  type ReadyCheck,
  reportFailure,
  runMain,
  Settings,
  serveAdmin,
} from "@explorer/service";
import { Effect, Layer } from "effect";
import { IngestConfig } from "./config.ts";
import { ingest } from "./ingest.ts";
import { Log, Node } from "./services.ts";

/** The ingester as a process: node → RawBlocks → log, until SIGINT/SIGTERM. */
export const IngesterLive = Layer.mergeAll(Log.layer).pipe(Layer.provideMerge(Node.layer));

/**
 * Ready when the node and the log answer; reports the node's committed height and the lag behind
 * it (1 when the ingester keeps up: it reads a height once the next is committed).
 */
export const ingesterChecks = Effect.gen(function* () {
  const node = yield* Node;
  const log = yield* Log;
  return [
    {
      name: "node",
      check: async () => {
        const head = await node.comet.committedHeight();
        const ingested = (await log.lastHeight().catch(() => undefined)) ?? 0;
        return { url: publicUrl(node.comet.url), head, ingested, lag: head - ingested };
      },
    },
    {
      name: "log",
      check: async () => ({ log: log.describe, height: (await log.lastHeight()) ?? 0 }),
    },
  ] satisfies ReadyCheck[];
});

/** The ingester with its admin port (metrics, health, readiness). */
export const ingesterProgram = Effect.gen(function* () {
  const cfg = yield* IngestConfig;
  const ready = yield* ingesterChecks;
  yield* serveAdmin({ port: cfg.metricsPort, host: cfg.metricsHost, ready });
  yield* ingest;
}).pipe(
  Effect.scoped,
  Effect.provide(IngesterLive),
  Effect.catchTag("BadSetup", (e) =>
    Effect.logError(e.message).pipe(Effect.andThen(Effect.fail(e))),
  ),
);

if (import.meta.url === `file://${process.argv[1]}`)
  // a failure is reported once, in the project's logger and one line on stderr (reportFailure)
  runMain(
    ingesterProgram.pipe(
      Effect.provide(Settings.fromEnv),
      reportFailure("ingester"),
      Effect.provide(LoggingLive),
    ),
    { disableErrorReporting: true },
  );
