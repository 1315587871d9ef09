import { Context, Metric } from "effect";
import { SAFE_READS, SPEC_METHODS } from "./availability.ts";

/**
 * Per-method metrics of the proxy: requests, errors (answers carrying a JSON-RPC error) and
 * latency, plus upstream health and live subscriptions. Counted in plain fields on the hot path
 * and exposed as Effect metrics whose values are read at export time (Prometheus text from
 * @explorer/service's metrics server: explorer_rpc_requests_total{method}, …_errors_total,
 * …_request_duration_seconds, explorer_rpc_upstream_up{upstream}, …_upstream_head,
 * …_upstream_requests_total, …_upstream_failures_total, explorer_rpc_subscriptions,
 * explorer_rpc_cache_hits_total).
 */
/** What the metrics read of an upstream. */
export interface UpstreamState {
  /** Its place in RPC_UPSTREAMS. */
  readonly index: number;
  readonly name: string;
  readonly up: boolean;
  readonly head: number | undefined;
  readonly requests: number;
  readonly failures: number;
}

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const KNOWN: ReadonlySet<string> = new Set([
  ...SPEC_METHODS.keys(),
  ...SAFE_READS,
  "eth_sendRawTransaction",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getBlockReceipts",
  "debug_traceCall",
]);

/** The method's label: its name when known, else "other" (labels stay bounded whatever clients send). */
export const methodLabel = (method: string) => (KNOWN.has(method) ? method : "other");

class MethodStats {
  requests = 0;
  errors = 0;
  readonly buckets = new Uint32Array(BOUNDS.length + 1);
  sum = 0;
  min = Number.MAX_VALUE;
  max = -Number.MAX_VALUE;

  histogram() {
    let cumulated = 0;
    const buckets = BOUNDS.map((b, i): [number, number] => {
      cumulated += this.buckets[i]!;
      return [b, cumulated];
    });
    return { buckets, count: this.requests, min: this.min, max: this.max, sum: this.sum };
  }
}

const ctx = Context.empty();
const noop = () => {};

const expose = <S>(metric: Metric.Metric<never, S>, get: () => S) =>
  Metric.registerUnsafe(metric as Metric.Metric<unknown, S>, ctx, {
    get,
    update: noop,
    modify: noop,
  });

class RpcMetrics {
  private readonly methods = new Map<string, MethodStats>();
  subscriptions = 0;
  cacheHits = 0;

  constructor() {
    expose(
      Metric.gauge("rpc_subscriptions", {
        description: "WebSocket subscriptions of clients relayed by the JSON-RPC proxy",
      }) as never,
      () => ({ value: this.subscriptions }),
    );
    expose(
      Metric.counter("rpc_cache_hits_total", {
        description: "Calls answered from the proxy's cache of answers that cannot change",
        incremental: true,
      }) as never,
      () => ({ count: this.cacheHits, incremental: true }),
    );
  }

  private stats(method: string): MethodStats {
    const label = methodLabel(method);
    let s = this.methods.get(label);
    if (!s) {
      const stats = new MethodStats();
      s = stats;
      this.methods.set(label, stats);
      const attributes = { method: label };
      expose(
        Metric.counter("rpc_requests_total", {
          description: "JSON-RPC calls answered by the proxy, per method",
          attributes,
          incremental: true,
        }) as never,
        () => ({ count: stats.requests, incremental: true }),
      );
      expose(
        Metric.counter("rpc_errors_total", {
          description: "JSON-RPC calls answered with an error, per method",
          attributes,
          incremental: true,
        }) as never,
        () => ({ count: stats.errors, incremental: true }),
      );
      expose(
        Metric.histogram("rpc_request_duration_seconds", {
          description: "Time from a call's arrival to its answer, per method",
          attributes,
          boundaries: BOUNDS,
        }) as never,
        () => stats.histogram(),
      );
    }
    return s;
  }

  record(method: string, error: boolean, seconds: number): void {
    const s = this.stats(method);
    s.requests++;
    if (error) s.errors++;
    let i = 0;
    while (i < BOUNDS.length && seconds > BOUNDS[i]!) i++;
    s.buckets[i]!++;
    s.sum += seconds;
    if (seconds < s.min) s.min = seconds;
    if (seconds > s.max) s.max = seconds;
  }

  /** Exposes an upstream's state, read at export time. */
  watchUpstream(u: UpstreamState): void {
    const attributes = { upstream: u.name, position: String(u.index) };
    const gauge = (name: string, description: string, get: () => number) =>
      expose(Metric.gauge(name, { description, attributes }) as never, () => ({ value: get() }));
    const counter = (name: string, description: string, get: () => number) =>
      expose(Metric.counter(name, { description, attributes, incremental: true }) as never, () => ({
        count: get(),
        incremental: true,
      }));
    gauge("rpc_upstream_up", "1 while the upstream node answers", () => (u.up ? 1 : 0));
    gauge(
      "rpc_upstream_head",
      "The upstream's latest block at its last health check",
      () => u.head ?? 0,
    );
    counter("rpc_upstream_requests_total", "Requests sent to the upstream", () => u.requests);
    counter(
      "rpc_upstream_failures_total",
      "Requests the upstream did not answer",
      () => u.failures,
    );
  }

  /** Requests and errors of a method so far (for tests and logs). */
  count(method: string): { requests: number; errors: number } {
    const s = this.methods.get(methodLabel(method));
    return { requests: s?.requests ?? 0, errors: s?.errors ?? 0 };
  }
}

/** One set per process, like the Effect metric registry it is exported through. */
export const rpcMetrics = new RpcMetrics();
