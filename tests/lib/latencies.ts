import { percentile } from "../bench/table.ts";

/**
 * The latency figures of a closed-loop load run: `samples`, each request's latency as its client
 * waited it (ms), over `durationMs` with `clients` connections each asking one request at a time.
 */
export interface LatencyFigures {
  readonly p50: number;
  readonly p99: number;
  /**
   * The p99 with wrk's correction for coordinated omission: each sample above twice the time a
   * client took per request on average (`durationMs / (requests / clients)`) is taken again at
   * that much less, and less again, down to it, as if requests had kept coming at that pace
   * while the client waited. wrk prints only this figure; at a saturated server it is not what a
   * client waited (its mean exceeds what Little's law allows 50 clients at the measured rate).
   */
  readonly p99Corrected: number;
}

export { percentile };

/** The samples wrk's correction adds for one sample `v` at pace `every` (ms). */
const corrections = (v: number, every: number): number[] => {
  const out: number[] = [];
  if (v < 2 * every) return out;
  for (let m = v - every; m > every; m -= every) out.push(m);
  return out;
};

export const latencyFigures = (
  samples: readonly number[],
  durationMs: number,
  clients: number,
): LatencyFigures => {
  const perClient = samples.length / clients;
  const every = perClient >= 1 ? durationMs / Math.floor(perClient) : Number.POSITIVE_INFINITY;
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    p99Corrected: percentile([...samples, ...samples.flatMap((v) => corrections(v, every))], 99),
  };
};
