import type { ClickHouseClient } from "@clickhouse/client";
import type { LogEntry, RawLog } from "@explorer/raw-log";
import { BatchWriter, type Progress, readProgress } from "./writer.ts";

export interface ProjectOptions {
  readonly prefix: string;
  readonly nativeDenoms: readonly string[];
  /** Flush after this many blocks… */
  readonly batchBlocks: number;
  /** …or when no new entry came for this long (ms). */
  readonly batchIdleMs: number;
  /** Keep following the log's head (default), or stop at its current end. */
  readonly follow: boolean;
  /** Stop once this height is projected (0 or absent: no limit). */
  readonly untilHeight?: number;
  readonly signal?: AbortSignal;
  /** Told after each batch: everything up to this height is in the tables. */
  readonly onProjected?: (p: Progress, blocks: number) => void;
  /** Ignore the recorded progress and replay the whole log (rows already there collapse). */
  readonly fromStart?: boolean;
  /** Asked between batches: stop (to switch table sets, say). */
  readonly shouldStop?: () => Promise<boolean>;
}

/** Next entry, or "idle" if none arrives within ms. */
const nextOr = async <T>(
  pending: Promise<IteratorResult<T>>,
  ms: number,
): Promise<IteratorResult<T> | "idle"> => {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<"idle">((r) => {
    timer = setTimeout(() => r("idle"), ms);
  });
  try {
    return await Promise.race([pending, idle]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Projects the log into table set `db` from where it stopped: re-reads from the last projected
 * block (to pick up metadata records appended after it), skips blocks already projected, and
 * writes batches in height order.
 */
export const projectLog = async (
  ch: ClickHouseClient,
  db: string,
  log: RawLog,
  o: ProjectOptions,
): Promise<Progress> => {
  const from = o.fromStart ? { height: 0, txsTotal: 0 } : await readProgress(ch, db);
  const writer = new BatchWriter(ch, db, { prefix: o.prefix, nativeDenoms: o.nativeDenoms }, from);
  const start = Math.max(from.height, (await log.firstHeight()) ?? 1);
  const it = log.read(start, { follow: o.follow, signal: o.signal })[Symbol.asyncIterator]();
  // One batch is written while the next is decoded and projected: at most one write in flight,
  // and writes stay in order (each batch's tables, then its progress row).
  let inflight: Promise<Progress> = Promise.resolve(from);
  const flush = async (): Promise<Progress> => {
    await inflight;
    const batch = writer.take();
    inflight = writer.write(batch).then((p) => {
      o.onProjected?.(p, batch.blocks);
      return p;
    });
    inflight.catch(() => {}); // surfaced by the next await
    return batch.progress;
  };
  const settled = async () => {
    await flush();
    return inflight;
  };
  let pending: Promise<IteratorResult<LogEntry>> | undefined;
  for (;;) {
    pending ??= it.next();
    const r = writer.entries > 0 ? await nextOr(pending, o.batchIdleMs) : await pending;
    if (r === "idle") {
      await settled();
      if (await o.shouldStop?.()) break;
      continue;
    }
    pending = undefined;
    if (r.done) break;
    const e = r.value;
    if (e.kind === "block" && e.height <= from.height) continue;
    if (o.untilHeight && e.kind === "block" && e.height > o.untilHeight) break;
    writer.add(e);
    if (writer.pending >= o.batchBlocks) {
      await flush();
      if (o.shouldStop) {
        await inflight; // the switch check needs this batch written
        if (await o.shouldStop()) break;
      }
    }
  }
  await it.return?.();
  return settled();
};
