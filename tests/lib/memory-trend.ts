/** One memory sample of a process (MiB), `t` in seconds since the run began. */
export interface MemorySample {
  readonly t: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** Memory of Buffers and other objects outside the JS heap that V8 knows of. */
  readonly external?: number;
}

export interface Trend {
  /** Mean of the first and of the last third of the samples. */
  readonly first: number;
  readonly last: number;
  /** last − first, and the noise it is judged against: max(3 σ of the first third, 5 % of first). */
  readonly growth: number;
  readonly noise: number;
  /** Least-squares slope over the whole run, MiB per minute. */
  readonly slopePerMinute: number;
  readonly steady: boolean;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Whether a value sampled across a run (RSS, heap) stays level: the last third is compared with
 * the first third, and growth within the first third's own noise (or 5 %) counts as steady. Needs
 * at least 6 samples.
 */
export const trendOf = (
  samples: readonly MemorySample[],
  pick: (s: MemorySample) => number,
): Trend => {
  if (samples.length < 6) throw new Error(`need at least 6 samples, got ${samples.length}`);
  const n = Math.floor(samples.length / 3);
  const firstXs = samples.slice(0, n).map(pick);
  const lastXs = samples.slice(-n).map(pick);
  const first = mean(firstXs);
  const last = mean(lastXs);
  const sd = Math.sqrt(mean(firstXs.map((x) => (x - first) ** 2)));
  const noise = Math.max(3 * sd, 0.05 * first);
  const ts = samples.map((s) => s.t);
  const ys = samples.map(pick);
  const mt = mean(ts);
  const my = mean(ys);
  const cov = ts.reduce((a, t, i) => a + (t - mt) * (ys[i]! - my), 0);
  const vt = ts.reduce((a, t) => a + (t - mt) ** 2, 0);
  const slopePerMinute = vt ? (cov / vt) * 60 : 0;
  return {
    first,
    last,
    growth: last - first,
    noise,
    slopePerMinute,
    steady: last - first <= noise,
  };
};
