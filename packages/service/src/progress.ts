/** Backfill progress on a terminal: height, blocks/s, txs/s and the time left, every few seconds. */
export interface ProgressSample {
  readonly height: number;
  readonly head: number;
  readonly blocks: number;
  readonly txs: number;
  readonly elapsedMs: number;
}

const duration = (s: number): string => {
  if (!Number.isFinite(s)) return "?";
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
};

/** One line of progress (pure). */
export const progressLine = (p: ProgressSample): string => {
  const secs = Math.max(p.elapsedMs / 1000, 1e-3);
  const bps = p.blocks / secs;
  const left = Math.max(p.head - p.height, 0);
  const pct = p.head > 0 ? ((p.height / p.head) * 100).toFixed(1) : "0.0";
  return `height ${p.height}/${p.head} (${pct}%) · ${bps.toFixed(1)} blocks/s · ${(p.txs / secs).toFixed(1)} txs/s · ${
    left === 0 ? "at the head" : `ETA ${duration(left / Math.max(bps, 1e-9))}`
  }`;
};

/**
 * When to show a line of progress: the first time, then every `everyMs` on a terminal (5× that
 * when stderr is a file or a pipe, as in a container's log), and whenever `final` (the head).
 */
export const progressCadence = (everyMs = 2000) => {
  const every = process.stderr.isTTY ? everyMs : everyMs * 5;
  let last = 0;
  return (final = false): boolean => {
    const now = Date.now();
    if (!final && now - last < every) return false;
    last = now;
    return true;
  };
};

export const makeProgress = (enabled: boolean, everyMs = 2000) => {
  const t0 = Date.now();
  const due = progressCadence(everyMs);
  let blocks = 0;
  let txs = 0;
  const tty = process.stderr.isTTY;
  return {
    add(height: number, head: number, txCount: number) {
      blocks++;
      txs += txCount;
      if (!enabled || !due()) return;
      const now = Date.now();
      const line = progressLine({ height, head, blocks, txs, elapsedMs: now - t0 });
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    done() {
      if (enabled && tty) process.stderr.write("\n");
    },
  };
};
