#!/usr/bin/env -S node --import tsx
import { createServer, type Server } from "node:http";
import { NatsLog } from "@explorer/raw-log";
import {
  callbackWarner,
  closeServer,
  LoggingLive,
  listen,
  Settings as ProcessSettings,
  REFERENCE_EVM_CHAIN_ID,
  type ReadyCheck,
  type ReadyReport,
  reportFailure,
  runChecks,
  runMain,
  serveAdmin,
} from "@explorer/service";
import { awaitMigratedSet, ensureCurrentSet, openClickHouse, parseStoreUrl } from "@explorer/store";
import { Verifier } from "@explorer/verifier";
import { Effect, Layer, ManagedRuntime } from "effect";
import { ApiConfig, apiSettings, verifierOptions } from "./config.ts";
import { Db, makeDb } from "./db.ts";
import { makeNodeLink, NodeLink } from "./endpoints/etherscan/node.ts";
import { makeSqlEngine } from "./endpoints/sql/engine.ts";
import { type ApiSettings, makeApp, type Probes, Settings } from "./http/app.ts";
import { mountRoutes } from "./http/mount.ts";
import { logLine } from "./log.ts";
import { makeReadModel } from "./read-model/make.ts";
import { ReadModel } from "./read-model/read-model.ts";
import { ROUTE_SPECS } from "./routes/specs.ts";
import { attachRpc } from "./rpc/attach.ts";
import { rpcSettings } from "./rpc/config.ts";
import { attachStream } from "./stream/attach.ts";
import { natsSource, pollingSource } from "./stream/source.ts";
import { makeVerification, Verification, type VerificationShape } from "./verification/service.ts";

/**
 * Builds the API over a store: every route under /api/1.0, run through one managed runtime.
 * `verification` says where verifications are recorded (the log) and how compilers are had; by
 * default compilers come from npm into the default cache and nothing can be recorded.
 * `processChecks`: what else the process `/ready` depends on (under `start`: the projector and
 * the node); a check named "store" there stands in for the API's own.
 */
export const buildApi = (
  ch: Parameters<typeof makeDb>[0],
  base: string,
  settings: ApiSettings,
  verification: VerificationShape = makeVerification({
    verifier: new Verifier(),
    log: undefined,
    chainId: "",
    evmChainId: REFERENCE_EVM_CHAIN_ID,
  }),
  processChecks: readonly ReadyCheck[] = [],
) => {
  const db = makeDb(ch, base);
  const reads = makeReadModel(db, settings.recordCacheDir);
  const sqlEngine = settings.sql && makeSqlEngine(ch, base, settings.sql);
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(
      Layer.succeed(Db, Db.of(db)),
      // The JSON-RPC proxy this API's node calls go through, once attached (rpc/attach.ts).
      Layer.succeed(NodeLink, NodeLink.of(makeNodeLink())),
      // The record cache's follower stops (and its file closes) with the runtime.
      Layer.effect(
        ReadModel,
        Effect.acquireRelease(Effect.succeed(ReadModel.of(reads)), (r) =>
          Effect.promise(() => r.stop()),
        ),
      ),
      // The SQL endpoint's chDB sessions close with the runtime, before the store's.
      Layer.effect(
        Settings,
        Effect.acquireRelease(Effect.succeed(Settings.of({ ...settings, sqlEngine })), () =>
          Effect.promise(async () => sqlEngine?.close()),
        ),
      ),
      Layer.effect(
        Verification,
        Effect.acquireRelease(Effect.succeed(Verification.of(verification)), (v) =>
          Effect.promise(() => v.verifier.close()),
        ),
      ),
    ),
  );
  const storeCheck: ReadyCheck = {
    name: "store",
    check: async () => {
      const st = await runtime.runPromise(
        Effect.gen(function* () {
          return yield* (yield* Db).state;
        }),
      );
      return { tableSet: st.db, projected: st.height };
    },
  };
  const ready = [
    ...(processChecks.some((c) => c.name === storeCheck.name) ? [] : [storeCheck]),
    ...processChecks,
  ];
  // Liveness and readiness on the API's own port too, for load balancers (outside /api/1.0):
  // answered before API keys and rate limits, so that a balancer's probes, which share its address
  // with the traffic it forwards, are never answered 429.
  // Anyone can ask this port: one run of the checks at a time, its report reused for a second
  // after it ends, so probes cannot make the store work harder; a failed check's reason (it can
  // name hosts and users) goes to the log, and the answer says "unavailable" (the admin port's
  // /ready gives it).
  let lastReady: { done?: number; report: Promise<ReadyReport> } | undefined;
  const publicReady = () => {
    const done = lastReady?.done;
    if (!lastReady || (done !== undefined && Date.now() - done > 1000)) {
      const run: { done?: number; report: Promise<ReadyReport> } = {
        report: runChecks(ready)
          .then(withoutReasons)
          .finally(() => {
            run.done = Date.now();
          }),
      };
      lastReady = run;
    }
    return lastReady.report;
  };
  const probes: Probes = new Map<string, () => Promise<{ status: number; body: unknown }>>([
    ["/health", async () => ({ status: 200, body: { status: "ok" } })],
    [
      "/ready",
      async () => {
        const r = await publicReady();
        return { status: r.ready ? 200 : 503, body: r };
      },
    ],
  ]);
  const app = makeApp(runtime, { ...settings, sqlEngine }, ROUTE_SPECS, mountRoutes, probes);
  return { app, runtime, ready, records: reads.keepsRecords ? reads : undefined };
};

/** A readiness report for the public port: each failed check's reason logged, not shown. */
const withoutReasons = (r: ReadyReport): ReadyReport => ({
  ready: r.ready,
  checks: Object.fromEntries(
    Object.entries(r.checks).map(([name, c]) => {
      if (c.ok) return [name, c];
      logLine("warn", { msg: "not ready", check: name, error: c.error });
      return [name, { ok: false, error: "unavailable (the reason is in the API's log)" }];
    }),
  ),
});

/** Listens with the app for as long as the scope lives; closing the server disposes the runtime. */
export const listenApi = (
  app: ReturnType<typeof buildApi>["app"],
  runtime: ReturnType<typeof buildApi>["runtime"],
  port: number,
  host: string,
) =>
  Effect.acquireRelease(
    Effect.suspend(() => listen(createServer(app.callback()), port, host, "the API")),
    (s) => Effect.promise(() => closeServer(s).then(() => runtime.dispose())),
  );

/**
 * The Socket.IO stream (fed by `source`) and the JSON-RPC proxy on the API's server, both closed
 * with the scope: what `serve` and the all-in-one `explorer start` attach alike.
 */
export const attachStreamAndRpc = (
  server: Server,
  app: ReturnType<typeof buildApi>["app"],
  runtime: ReturnType<typeof buildApi>["runtime"],
  source: Parameters<typeof attachStream>[2],
  rpc: Parameters<typeof attachRpc>[1],
  cfg: {
    readonly prefix: string;
    readonly streamConnectionsPerIp: number;
    readonly trustedProxies: number;
  },
) =>
  Effect.gen(function* () {
    yield* Effect.acquireRelease(
      Effect.promise(() =>
        attachStream(server, runtime, source, cfg.prefix, {
          admission: app.admission,
          // 0: no limit per address
          maxConnectionsPerIp: cfg.streamConnectionsPerIp || Number.POSITIVE_INFINITY,
          trustedProxies: cfg.trustedProxies,
        }),
      ),
      (s) => Effect.promise(() => s.close()),
    );
    yield* Effect.acquireRelease(
      Effect.promise(() => attachRpc(server, rpc, runtime)),
      (r) => Effect.promise(() => r.close()),
    );
  });

export const serve = Effect.gen(function* () {
  const cfg = yield* ApiConfig;
  const store = parseStoreUrl(cfg.storeUrl);
  const ch = yield* Effect.acquireRelease(
    Effect.promise(() => openClickHouse(store)),
    (c) => Effect.promise(() => c.close()),
  );
  const settings = apiSettings(cfg.settings, store, cfg.storeDb);
  // The proxy's settings (a policy file among them) are checked before anything waits or listens.
  const rpc = rpcSettings(cfg.settings, settings.apiKeys);
  // On a server, the projector (or `explorer migrate`) creates and migrates the tables: a
  // migration run here beside a projector writing could lose its rows (see @explorer/store's
  // migrate). A chDB directory is this process's alone, so it migrates it (an API before any
  // projection answers 404s, not 500s).
  const warn = yield* callbackWarner;
  yield* Effect.promise((signal) =>
    store.kind === "chdb"
      ? ensureCurrentSet(ch, cfg.storeDb)
      : awaitMigratedSet(ch, cfg.storeDb, { onWait: (why) => warn(why), signal }),
  );
  // Verifications are recorded in the log: with NATS any instance can append; the embedded log
  // belongs to the process that runs the ingester (`npm start` records through it).
  const nats = cfg.nats;
  const log = nats
    ? yield* Effect.acquireRelease(
        Effect.promise(() => NatsLog.open({ servers: nats.url, chainId: nats.chainId })),
        (l) => Effect.promise(() => l.close()),
      )
    : undefined;
  const verification = makeVerification({
    verifier: new Verifier(verifierOptions(cfg.settings)),
    log,
    chainId: nats?.chainId ?? "",
    evmChainId: cfg.evmChainId,
  });
  const { app, runtime, ready } = buildApi(ch, cfg.storeDb, settings, verification);
  yield* serveAdmin({ port: cfg.metricsPort, host: cfg.metricsHost, ready });
  const server = yield* listenApi(app, runtime, cfg.port, cfg.host);
  const port = (server.address() as { port: number }).port; // --port 0: the one chosen
  const source = yield* Effect.acquireRelease(
    Effect.promise(async () =>
      nats
        ? natsSource(nats.url, nats.chainId)
        : pollingSource(() =>
            runtime.runPromise(
              Effect.gen(function* () {
                return (yield* (yield* Db).state).height;
              }),
            ),
          ),
    ),
    (s) => Effect.promise(() => s.close()),
  );
  yield* attachStreamAndRpc(server, app, runtime, source, rpc, cfg);
  yield* Effect.logInfo(
    `REST API on http://${cfg.host}:${port}/api/1.0; stream: Socket.IO path /api/1.0/stream; JSON-RPC: http://${cfg.host}:${port}${rpc.path} and ws://${cfg.host}:${port}${rpc.path} (${rpc.upstreams.length} upstream nodes)`,
  );
  return yield* Effect.never;
});

if (import.meta.url === `file://${process.argv[1]}`)
  // a failure is reported once, in the project's logger and one line on stderr (reportFailure)
  runMain(
    Effect.scoped(serve).pipe(
      Effect.provide(ProcessSettings.fromEnv),
      reportFailure("api"),
      Effect.provide(LoggingLive),
    ),
    { disableErrorReporting: true },
  );
