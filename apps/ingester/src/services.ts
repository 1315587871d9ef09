import { openLogPatiently, type RawLog } from "@explorer/raw-log";
import { callbackWarner, publicUrl } from "@explorer/service";
import { Context, Effect, Layer } from "effect";
import type { Readers } from "./assemble/raw-block.ts";
import { IngestConfig, LogConfig, NodeConfig } from "./config.ts";
import { NodeUnavailable } from "./errors.ts";
import { makeReaders } from "./node/readers.ts";

/** The chain node: CometBFT RPC, Cosmos REST and EVM JSON-RPC readers. */
export class Node extends Context.Service<Node, Readers>()("ingester/Node") {
  static readonly layer = Layer.effect(
    Node,
    Effect.gen(function* () {
      const cfg = yield* NodeConfig;
      const readers = yield* Effect.acquireRelease(
        Effect.sync(() => makeReaders(cfg)),
        (r) => Effect.sync(() => r.close()),
      );
      return Node.of(readers);
    }),
  );
}

/**
 * The raw-block log: embedded (default) or NATS JetStream, chosen by LOG_BACKEND; the stream is
 * named after the chain id the node reports (or CHAIN_ID).
 */
export class Log extends Context.Service<Log, RawLog>()("ingester/Log") {
  static readonly layer = Layer.effect(
    Log,
    Effect.gen(function* () {
      const cfg = yield* LogConfig;
      const { chainId: configured } = yield* IngestConfig;
      const node = yield* Node;
      const chainId =
        configured ||
        (yield* Effect.tryPromise({
          try: () => node.comet.status(),
          catch: (e) =>
            new NodeUnavailable({
              message: `cannot read the chain id from ${publicUrl(node.comet.url)}: ${(e as Error).message}`,
            }),
        })).chainId;
      const warn = yield* callbackWarner;
      // Waiting for the log can take a while (a NATS server starting): a stop ends the wait.
      const log = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: (signal): Promise<RawLog> =>
            openLogPatiently(
              { ...cfg, chainId },
              (m, next) => warn(`waiting for the log (next try in ${next} ms): ${m}`),
              signal,
            ),
          catch: (e) => new Error(`cannot open the ${cfg.backend} log: ${(e as Error).message}`),
        }),
        (l) => Effect.promise(() => l.close()),
        { interruptible: true },
      );
      return Log.of(log);
    }),
  );
}
