#!/usr/bin/env -S node --import tsx
import { LoggingLive, metricsServer, runMain } from "@explorer/service";
import { Effect, Layer } from "effect";
import { IngestConfig } from "./config.ts";
import { ingest } from "./ingest.ts";
import { Log, Node } from "./services.ts";

/** The ingester as a process: node → RawBlocks → log, until SIGINT/SIGTERM. */
export const IngesterLive = Layer.mergeAll(Log.layer).pipe(Layer.provideMerge(Node.layer));

const program = Effect.gen(function* () {
  const cfg = yield* IngestConfig;
  yield* Layer.launch(metricsServer(cfg.metricsPort)).pipe(
    Effect.forkChild({ startImmediately: true }),
  );
  yield* ingest;
}).pipe(
  Effect.provide(IngesterLive),
  Effect.catchTag("BadSetup", (e) =>
    Effect.logError(e.message).pipe(Effect.andThen(Effect.fail(e))),
  ),
  Effect.provide(LoggingLive),
);

if (import.meta.url === `file://${process.argv[1]}`) runMain(program);
