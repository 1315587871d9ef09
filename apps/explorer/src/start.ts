import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  apiSettings,
  attachStreamAndRpc,
  buildApi,
  inProcessSource,
  listenApi,
  makeVerification,
  rpcSettings,
  verifierOptions,
} from "@explorer/api";
import { BadSetup, Log as IngestLog, ingest, ingesterChecks, Node } from "@explorer/ingester";
import {
  followWith,
  type Log as ProjectorLog,
  projectorChecks,
  projectorParts,
  reindexWith,
  type Store,
} from "@explorer/projector";
import { RawBlockFormatError } from "@explorer/raw-block";
import { EmbeddedLog, openLogPatiently, type RawLog } from "@explorer/raw-log";
import {
  callbackInfo,
  callbackWarner,
  namedChainId,
  publicUrl,
  type ReadyCheck,
  Settings,
  serveAdmin,
} from "@explorer/service";
import { ensureCurrentSet, openClickHouse, setDb } from "@explorer/store";
import { Verifier } from "@explorer/verifier";
import { Effect, Fiber, Layer } from "effect";
import { evmChainIdOf } from "./evm-chain-id.ts";
import { planReplay, replaySample, samplePrefix } from "./sample-replay.ts";

/** The bundled sample chain: a raw-block log recorded from the reference chain by the scenario. */
export const sampleLog = fileURLToPath(
  new URL("../../../samples/reference-chain/log.dat", import.meta.url),
);

/** `start`'s part of the process's settings (@explorer/service's registry holds their defaults). */
export const StartConfig = Settings.useSync((s) => ({
  ...s,
  /** Where `start` keeps the log and chDB; the projector and the API read them from here. */
  logDir: join(s.dataDir, "log"),
  chdbDir: join(s.dataDir, "chdb"),
  chainId: namedChainId(s),
}));

/**
 * Serves the bundled sample: its records go into the data log, the last ones at their recorded
 * pace (in the background), so the projector and the stream see blocks arrive as on a live chain.
 */
const feedSample = (log: RawLog, dataDir: string, paced: number, prefix: string) =>
  Effect.gen(function* () {
    const copyDir = join(dataDir, "sample");
    mkdirSync(copyDir, { recursive: true });
    // Copied whole or not at all: a copy cut short by a crash would be opened as a shorter sample
    // (its torn end cut off), and the heights past the cut never served.
    if (!existsSync(join(copyDir, "log.dat"))) {
      copyFileSync(sampleLog, join(copyDir, "log.dat.tmp"));
      renameSync(join(copyDir, "log.dat.tmp"), join(copyDir, "log.dat"));
    }
    const sample = yield* Effect.acquireRelease(
      Effect.sync(() => EmbeddedLog.open({ dir: copyDir })),
      (l) => Effect.promise(() => l.close()),
    );
    // Its accounts are named with the reference chain's prefix: another one would fail every
    // address lookup, request after request.
    const own = yield* Effect.promise(() => samplePrefix(sample));
    if (own !== undefined && own !== prefix)
      return yield* new BadSetup({
        message: `--prefix ${prefix}: the bundled sample chain's accounts are ${own}1…; leave --prefix out, or give it with --comet-rpc for the chain you follow`,
      });
    const last = (yield* Effect.promise(() => sample.lastHeight())) ?? 0;
    const have = (yield* Effect.promise(() => log.lastHeight())) ?? 0;
    const plan = planReplay(last, paced);
    if (have >= last) return undefined;
    yield* Effect.logInfo(
      have === 0
        ? `no node given (--comet-rpc): serving the bundled sample chain (heights 1..${last}); ${plan.instantUpTo < last ? `heights ${plan.instantUpTo + 1}..${last} are replayed at their recorded pace, so the stream shows new blocks for a while` : "all at once (no replay)"}`
        : `resuming the sample replay at height ${have + 1} of ${last}`,
    );
    const replay = yield* Effect.tryPromise({
      try: (signal) => replaySample(sample, log, plan, { signal }),
      // A copy that does not read back (a crash mid-write, a disk fault) is said as such, with
      // what to do; other failures (a full disk) as they are.
      catch: (e) =>
        e instanceof RawBlockFormatError
          ? new BadSetup({
              message: `the sample copy ${join(copyDir, "log.dat")} is damaged (${e.message}): delete ${dataDir} to start over`,
            })
          : e,
    }).pipe(
      Effect.andThen(Effect.logInfo(`sample replay done: heights 1..${last} served`)),
      Effect.forkScoped({ startImmediately: true }),
    );
    // The instant part first, so the API answers with the sample's data from the start; a replay
    // that ends before it (a damaged copy, a full disk) is not waited on: its failure ends start.
    while (
      ((yield* Effect.promise(() => log.lastHeight())) ?? 0) < Math.min(plan.instantUpTo, last) &&
      replay.pollUnsafe() === undefined
    )
      yield* Effect.sleep("50 millis");
    return replay;
  });

/**
 * `--reindex`: the whole log replayed into a new table set in the background while the current
 * one keeps serving and the projector keeps following, then the switch (the projector moves to
 * the new set at its next batch; the API once the new set holds what it served). With chDB one
 * process owns the data directory, so this is how an embedded store is re-indexed without
 * stopping. A re-index that fails is said, and the current set goes on serving.
 */
const reindexBeside = <E, R>(parts: Layer.Layer<Store | ProjectorLog, E, R>) =>
  Effect.gen(function* () {
    const info = yield* callbackInfo;
    return yield* reindexWith((line) => info(`re-index: ${line.trim()}`)).pipe(
      Effect.provide(parts),
      Effect.matchEffect({
        onSuccess: ({ set }) =>
          Effect.logInfo(
            `re-index done: ${setDb("explorer", set)} is now current; ${setDb("explorer", set - 1)} stays until dropped (DROP DATABASE ${setDb("explorer", set - 1)})`,
          ),
        onFailure: (e) =>
          Effect.logError(
            `re-index failed, the current table set goes on serving: ${e instanceof Error && e.cause instanceof Error ? e.cause.message : String(e)}`,
          ),
      }),
      Effect.onInterrupt(() =>
        Effect.logWarning(
          "re-index stopped before it finished: the current table set is unchanged, and the next re-index starts over",
        ),
      ),
      Effect.forkScoped({ startImmediately: true }),
    );
  });

/**
 * Embedded mode in one process: the raw-block log and chDB under EXPLORER_DATA_DIR, the projector
 * following the log, the REST API; and, when COMET_RPC_URL names a node, the ingester. With no
 * node, the bundled sample chain is fed into the log.
 */
export const start = Effect.gen(function* () {
  const cfg = yield* StartConfig;
  const apiSettingsOf = apiSettings(cfg, { kind: "chdb", path: cfg.chdbDir }, "explorer");
  // The proxy's settings (a policy file among them) are checked before anything starts.
  const rpc = rpcSettings(cfg, apiSettingsOf.apiKeys, cfg.cometRpc !== undefined);
  // feedSample's copy of the sample: this data dir serves it. Its heights are another chain's (its
  // chain id may even be the node's): a node's blocks would follow them in one log and tables.
  const holdsSample = existsSync(join(cfg.dataDir, "sample"));
  if (cfg.cometRpc && holdsSample)
    return yield* new BadSetup({
      message: `--data-dir ${cfg.dataDir} holds the bundled sample chain: follow a node (--comet-rpc) in an empty data dir`,
    });
  const logDir = cfg.logDir;
  mkdirSync(logDir, { recursive: true });
  const warn = yield* callbackWarner;
  // Waiting for the log can take a while (a NATS server starting): a stop ends the wait.
  const log = yield* Effect.acquireRelease(
    Effect.promise((signal) =>
      openLogPatiently(
        { backend: cfg.logBackend, dir: logDir, natsUrl: cfg.natsUrl, chainId: cfg.chainId },
        (m, next) => warn(`waiting for the log (next try in ${next} ms): ${m}`),
        signal,
      ),
    ),
    (l) => Effect.promise(() => l.close()),
    { interruptible: true },
  );
  const chdbDir = cfg.chdbDir;
  const ch = yield* Effect.acquireRelease(
    Effect.promise(() => openClickHouse({ kind: "chdb", path: chdbDir })),
    (c) => Effect.promise(() => c.close()),
  );

  yield* Effect.promise(() => ensureCurrentSet(ch, "explorer")); // the API answers (404s) before the first batch
  const projected = inProcessSource();
  // The work in the background: a failure of any of it ends the process (with what went wrong)
  // rather than leaving an API that looks ready over a log that no longer moves.
  const background: Fiber.Fiber<unknown, unknown>[] = [];
  const parts = projectorParts(
    ch,
    log,
    // The projector's settings that start owns: the table set the API reads, following for
    // good, and the log and store opened above. From the environment (one shared by every
    // command, say), the projector wrote elsewhere or stopped while the API waited on an empty
    // set and /ready said 200.
    Settings.layer({ ...cfg, storeDb: "explorer", follow: true, fromStart: false }),
  );
  const projector = yield* followWith((p) => projected.announce(p.height)).pipe(
    Effect.provide(parts),
    Effect.forkScoped({ startImmediately: true }),
  );
  background.push(projector);
  const ready: ReadyCheck[] = projectorChecks(ch, log, "explorer");
  if (cfg.cometRpc) {
    const node = Layer.succeed(IngestLog, IngestLog.of(log)).pipe(Layer.provideMerge(Node.layer));
    const [nodeCheck] = yield* ingesterChecks.pipe(Effect.provide(node));
    if (nodeCheck) ready.push(nodeCheck);
    background.push(
      yield* ingest.pipe(Effect.provide(node), Effect.forkScoped({ startImmediately: true })),
    );
  } else if (
    cfg.logBackend === "embedded" &&
    (!existsSync(join(logDir, "log.dat")) ||
      statSync(join(logDir, "log.dat")).size === 0 ||
      holdsSample)
  ) {
    const replay = yield* feedSample(log, cfg.dataDir, cfg.replayBlocks, cfg.prefix);
    if (replay) background.push(replay);
  }

  // Verifications go into this process's log, after the blocks (a replay restores them).
  const verification = makeVerification({
    verifier: new Verifier(verifierOptions(cfg)),
    log,
    chainId: cfg.chainId,
    evmChainId: yield* evmChainIdOf(cfg),
  });
  // The API port's /ready says what the admin port's does: the projector's lag (its "store"
  // check in place of the API's own), and the node's when one is followed (a load balancer sees
  // one process).
  const records = apiSettingsOf.recordCacheDir;
  const { app, runtime } = buildApi(ch, "explorer", apiSettingsOf, verification, ready);
  const server = yield* listenApi(app, runtime, cfg.apiPort, cfg.apiHost);
  yield* attachStreamAndRpc(server, app, runtime, projected, rpc, cfg);
  yield* serveAdmin({ port: cfg.metricsPort, host: cfg.metricsHost, ready });
  const port = (server.address() as { port: number }).port; // --port 0: the one chosen
  const base = `http://${cfg.apiHost}:${port}`;
  yield* Effect.logInfo(
    [
      "explorer is running (embedded mode)",
      `  REST API      ${base}/api/1.0   (e.g. ${base}/api/1.0/blocks/latest)`,
      `  docs          ${base}/api/1.0/docs   (OpenAPI: ${base}/api/1.0/openapi.json)`,
      `  stream        Socket.IO at ${base} with path /api/1.0/stream (events new-block, new-txs, new-tx)`,
      `  JSON-RPC      ${base}${rpc.path} (HTTP POST) and ws://${cfg.apiHost}:${port}${rpc.path} (WebSocket): ${rpc.upstreams.length ? `forwarded to ${rpc.upstreams.map((u) => publicUrl((u.http ?? u.ws)!)).join(", ")}` : "no node, so the index answers what it holds (eth_getLogs, eth_blockNumber, eth_chainId) and refuses the rest"}`,
      `  health        ${base}/health and ${base}/ready`,
      `  data          ${cfg.dataDir} (${cfg.logBackend === "embedded" ? "raw-block log in log/, " : ""}ClickHouse (chDB) in chdb/; ${records ? `the API's record cache in ${records}` : "no record cache"})`,
      `  chain         ${(cfg.cometRpc && publicUrl(cfg.cometRpc)) || (cfg.logBackend === "nats" ? `the log in NATS (${publicUrl(cfg.natsUrl)}), fed by another ingester` : "the bundled sample chain (--comet-rpc <url> and friends to follow a node)")}`,
    ].join("\n"),
  );
  if (cfg.reindex) background.push(yield* reindexBeside(parts));
  // Until stopped, or until a part fails (one that finishes, as the sample replay does, is done).
  return yield* Effect.forEach(
    background,
    (f) => Fiber.join(f).pipe(Effect.andThen(Effect.never)),
    { concurrency: "unbounded", discard: true },
  ).pipe(Effect.andThen(Effect.never));
});

export const startProgram = Effect.scoped(start);
