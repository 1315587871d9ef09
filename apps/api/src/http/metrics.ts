import { Context, Metric } from "effect";

const requests = Metric.counter("api_requests_total", {
  description: "HTTP requests answered, by route and status",
  incremental: true,
});
const latency = Metric.histogram("api_request_duration_ms", {
  description: "time to answer, by route",
  boundaries: Metric.exponentialBoundaries({ start: 0.25, factor: 2, count: 14 }),
});

// One series object per (route, status): created once, then only updated.
const series = new Map<string, { count: Metric.Counter<number>; ms: Metric.Histogram<number> }>();
const seriesOf = (route: string, status: number) => {
  const key = `${route} ${status}`;
  let s = series.get(key);
  if (!s) {
    s = {
      count: Metric.withAttributes(requests, { route, status: String(status) }),
      ms: Metric.withAttributes(latency, { route }),
    };
    series.set(key, s);
  }
  return s;
};

// The default services (the global metric registry), for updates without running an effect.
const services = Context.empty();

/** Counts a request answered by `route` (unmatched: `other`) with `status`, begun at `t0`. */
export const countAnswer = (route: string, status: number, t0: number) => {
  const s = seriesOf(route, status);
  // On every request: updated in place (Metric.update through Effect.runSync costs ~10x more).
  s.count.updateUnsafe(1, services);
  s.ms.updateUnsafe(performance.now() - t0, services);
};
