import { copyFileSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  attachStream,
  buildApi,
  inProcessSource,
  listenApi,
  makeVerification,
  parseNativeCoins,
  VerifierConfig,
  verifierOptions,
} from "@explorer/api";
import { Log as IngestLog, ingest, Node } from "@explorer/ingester";
import { followWith, Log as ProjectorLog, Store } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Verifier } from "@explorer/verifier";
import { Config, Effect, Layer } from "effect";

/** The bundled sample chain: a raw-block log recorded from the reference chain by the scenario. */
export const sampleLog = fileURLToPath(
  new URL("../../../samples/reference-chain/log.dat", import.meta.url),
);

export const StartConfig = Config.all({
  dataDir: Config.String("EXPLORER_DATA_DIR").pipe(Config.withDefault(".data")),
  port: Config.Int("API_PORT").pipe(Config.withDefault(8080)),
  host: Config.String("API_HOST").pipe(Config.withDefault("127.0.0.1")),
  /** A node to follow; without one, the bundled sample chain is served. */
  cometRpc: Config.String("COMET_RPC_URL").pipe(Config.withDefault("")),
  prefix: Config.String("BECH32_PREFIX").pipe(Config.withDefault("cosmos")),
  nativeCoins: Config.String("NATIVE_COINS").pipe(Config.withDefault("test:atest")),
  rateLimit: Config.Int("RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(1200)),
  chainId: Config.String("CHAIN_ID").pipe(Config.withDefault("evmd-local-1")),
  evmChainId: Config.Int("EVM_CHAIN_ID").pipe(Config.withDefault(262144)),
  ...VerifierConfig,
});

/**
 * Embedded mode in one process: the raw-block log and chDB under EXPLORER_DATA_DIR, the projector
 * following the log, the REST API; and, when COMET_RPC_URL names a node, the ingester. With no
 * node and an empty log, the bundled sample chain is copied in first.
 */
export const start = Effect.gen(function* () {
  const cfg = yield* StartConfig;
  const logDir = join(cfg.dataDir, "log");
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, "log.dat");
  const empty = !existsSync(logFile) || statSync(logFile).size === 0;
  if (empty && !cfg.cometRpc) {
    copyFileSync(sampleLog, logFile);
    yield* Effect.logInfo(
      `no node given (COMET_RPC_URL): serving the bundled sample chain, copied into ${logDir}`,
    );
  }
  const log = yield* Effect.acquireRelease(
    Effect.sync(() => EmbeddedLog.open({ dir: logDir })),
    (l) => Effect.promise(() => l.close()),
  );
  const ch = yield* Effect.acquireRelease(
    Effect.promise(() => openClickHouse({ kind: "chdb", path: join(cfg.dataDir, "chdb") })),
    (c) => Effect.promise(() => c.close()),
  );

  yield* Effect.promise(() => ensureCurrentSet(ch, "explorer")); // the API answers (404s) before the first batch
  const projected = inProcessSource();
  yield* followWith((p) => projected.announce(p.height)).pipe(
    Effect.provide(
      Layer.mergeAll(
        Layer.succeed(Store, Store.of(ch)),
        Layer.succeed(ProjectorLog, ProjectorLog.of(log)),
      ),
    ),
    Effect.forkScoped({ startImmediately: true }),
  );
  if (cfg.cometRpc) {
    yield* ingest.pipe(
      Effect.provide(
        Layer.succeed(IngestLog, IngestLog.of(log)).pipe(Layer.provideMerge(Node.layer)),
      ),
      Effect.forkScoped({ startImmediately: true }),
    );
  }

  // Verifications go into this process's log, after the blocks (a replay restores them).
  const verification = makeVerification({
    verifier: new Verifier(verifierOptions(cfg)),
    log,
    chainId: cfg.chainId,
    evmChainId: cfg.evmChainId,
  });
  const { app, runtime } = buildApi(
    ch,
    "explorer",
    {
      prefix: cfg.prefix,
      nativeCoins: parseNativeCoins(cfg.nativeCoins),
      rateLimitPerMinute: cfg.rateLimit,
      apiKeys: new Map(),
    },
    verification,
  );
  const server = yield* listenApi(app, runtime, cfg.port, cfg.host);
  yield* Effect.acquireRelease(
    Effect.promise(() => attachStream(server, runtime, projected, cfg.prefix)),
    (s) => Effect.promise(() => s.close()),
  );
  const base = `http://${cfg.host}:${cfg.port}`;
  yield* Effect.logInfo(
    [
      "explorer is running (embedded mode)",
      `  REST API      ${base}/api/1.0   (e.g. ${base}/api/1.0/blocks/latest)`,
      `  stream        Socket.IO at ${base} with path /api/1.0/stream (events new-block, new-txs, new-tx)`,
      `  data          ${cfg.dataDir} (raw-block log in log/, ClickHouse (chDB) in chdb/)`,
      `  chain         ${cfg.cometRpc || "the bundled sample chain (set COMET_RPC_URL and friends to follow a node)"}`,
    ].join("\n"),
  );
  return yield* Effect.never;
});
