import { createServer } from "node:http";
import { Effect, Layer } from "effect";
import { PrometheusMetrics } from "effect/observability";

/**
 * Serves Prometheus metrics (GET /metrics) and a liveness answer (GET /health) on the given
 * port, for as long as the layer lives. Port 0 or undefined: no server.
 */
export const metricsServer = (port: number | undefined, prefix = "explorer") =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      if (!port) return;
      const server = yield* Effect.acquireRelease(
        Effect.callback<ReturnType<typeof createServer>>((resume) => {
          const s = createServer((req, res) => {
            if (req.url === "/metrics") {
              const text = Effect.runSync(PrometheusMetrics.format({ prefix }));
              res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(text);
            } else if (req.url === "/health") {
              res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
            } else res.writeHead(404).end();
          });
          s.listen(port, "127.0.0.1", () => resume(Effect.succeed(s)));
        }),
        (s) =>
          Effect.callback<void>((resume) => {
            s.close(() => resume(Effect.void));
          }),
      );
      yield* Effect.logInfo(
        `metrics on http://127.0.0.1:${(server.address() as { port: number }).port}/metrics`,
      );
    }),
  );
