import { createServer } from "node:http";
import { Effect, Layer } from "effect";
import { PrometheusMetrics } from "effect/observability";
import { type ReadyCheck, runChecks } from "./health.ts";
import { closeServer, listen } from "./listen.ts";

export interface AdminOptions {
  readonly port: number | undefined;
  /** Interface to listen on (default 127.0.0.1; 0.0.0.0 in a container). */
  readonly host?: string;
  /** Metric name prefix (default `explorer`). */
  readonly prefix?: string;
  /** What /ready checks. */
  readonly ready?: readonly ReadyCheck[];
}

/**
 * The admin port of an app: Prometheus metrics (GET /metrics), liveness (GET /health: the process
 * answers) and readiness (GET /ready: 200 when every check passes, else 503, with each check's
 * details), for as long as the layer lives. Port 0 or undefined: no server.
 */
export const metricsServer = (opts: AdminOptions | number | undefined) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const o: AdminOptions = typeof opts === "object" ? opts : { port: opts };
      if (!o.port) return;
      const host = o.host ?? "127.0.0.1";
      const server = yield* Effect.acquireRelease(
        Effect.suspend(() => {
          const s = createServer((req, res) => {
            const json = (status: number, body: unknown) =>
              res
                .writeHead(status, { "content-type": "application/json" })
                .end(JSON.stringify(body));
            if (req.url === "/metrics") {
              const text = Effect.runSync(
                PrometheusMetrics.format({ prefix: o.prefix ?? "explorer" }),
              );
              res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(text);
            } else if (req.url === "/health") json(200, { status: "ok" });
            else if (req.url === "/ready")
              runChecks(o.ready ?? []).then(
                (r) => json(r.ready ? 200 : 503, r),
                (e) => json(503, { ready: false, error: String(e) }),
              );
            else res.writeHead(404).end();
          });
          return listen(s, o.port!, host, "the metrics");
        }),
        (s) => Effect.promise(() => closeServer(s)),
      );
      yield* Effect.logInfo(
        `metrics, health and readiness on http://${host}:${(server.address() as { port: number }).port}/{metrics,health,ready}`,
      );
    }),
  );

/**
 * The admin server (metricsServer) for as long as the caller's scope lives: a port it cannot
 * listen on fails the caller with one line, as the app's own port does (launched in a fiber of
 * its own, the failure went unseen and the app ran on without its admin port).
 */
export const serveAdmin = (opts: AdminOptions) => Effect.asVoid(Layer.build(metricsServer(opts)));
