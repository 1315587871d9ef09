import type { ClickHouseClient } from "@clickhouse/client";
import type { LogEntry, RawLog } from "@explorer/raw-log";
import { SETTINGS } from "@explorer/service/settings";
import { readTableColumns } from "@explorer/store";
import { openPool } from "./pool.ts";
import { type ProjectedEntry, RecordError } from "./project-entry.ts";
import { BatchWriter, type Progress, readProgress } from "./writer.ts";

export interface ProjectOptions {
  readonly prefix: string;
  readonly nativeDenoms: readonly string[];
  /** Flush after this many blocks… */
  readonly batchBlocks: number;
  /** …or once the batch holds this many bytes of encoded rows (default DEFAULT_BATCH_BYTES)… */
  readonly batchBytes?: number;
  /** …or when no new entry came for this long (ms). */
  readonly batchIdleMs: number;
  /** Worker threads that decode and project (0: this thread; default 2). */
  readonly workers?: number;
  /** Keep following the log's head (default), or stop at its current end. */
  readonly follow: boolean;
  /** Stop once this height is projected (0 or absent: no limit). */
  readonly untilHeight?: number;
  readonly signal?: AbortSignal;
  /** Told after each batch: everything up to this height is in the tables. */
  readonly onProjected?: (p: Progress, blocks: number) => void;
  /**
   * Ignore the recorded progress and go on from this one: `NOTHING_PROJECTED` replays the whole
   * log (rows already there collapse); a later one resumes such a replay.
   */
  readonly from?: Progress;
  /** Asked between batches: stop (to switch table sets, say). */
  readonly shouldStop?: () => Promise<boolean>;
  /**
   * Once aborted, no batch is written any more (the one being written ends) and its reason is
   * thrown, where `signal` lets the batches read so far be written: for a re-index whose lock was
   * taken over, whose set the next holder is filling.
   */
  readonly halt?: AbortSignal;
}

/** Encoded rows a batch holds at most, by default: BATCH_BYTES's default (why: its registry entry). */
export const DEFAULT_BATCH_BYTES = SETTINGS.batchBytes.default;

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
 * The entry's projection, checked against where the log holds it: a RecordError says which
 * record (a block record holding another height would otherwise surface as a gap).
 */
const located = async (e: LogEntry, p: Promise<ProjectedEntry>): Promise<ProjectedEntry> => {
  const where = `log record ${e.seq} (${e.kind} ${e.key}, height ${e.height})`;
  const out = await p.catch((err: unknown) => {
    throw err instanceof RecordError
      ? new RecordError(`${where} cannot be projected: ${err.message}`)
      : err;
  });
  if (e.kind === "block" && (out.kind !== "block" || out.height !== e.height))
    throw new RecordError(
      `${where} holds ${out.kind === "block" ? `block ${out.height}` : "a metadata record"}`,
    );
  return out;
};

/** Entries decoded and projected ahead of the writer, at most (bounds memory). */
const AHEAD = 64;
/** Worker threads start only for a backlog of at least this many blocks; at the head, one thread does it all. */
const WORKER_BACKLOG = 64;

/**
 * Projects the log into table set `db` from where it stopped: re-reads from the last projected
 * block (to pick up metadata records appended after it), skips blocks already projected, and
 * writes batches in height order. With a backlog, entries are decoded and projected on worker
 * threads, up to AHEAD entries ahead, while the previous batch is written; they are added in log
 * order.
 */
export const projectLog = async (
  ch: ClickHouseClient,
  db: string,
  log: RawLog,
  o: ProjectOptions,
): Promise<Progress> => {
  const from = o.from ?? (await readProgress(ch, db));
  const columns = await readTableColumns(ch, db);
  const writer = new BatchWriter(ch, db, from, columns);
  const batchBytes = o.batchBytes ?? DEFAULT_BATCH_BYTES;
  const start = Math.max(from.height, (await log.firstHeight()) ?? 1);
  const end = Math.min((await log.lastHeight()) ?? 0, o.untilHeight || Number.POSITIVE_INFINITY);
  const pool = openPool(end - start >= WORKER_BACKLOG ? (o.workers ?? 2) : 0, {
    prefix: o.prefix,
    nativeDenoms: o.nativeDenoms,
    columns,
  });
  const it = log.read(start, { follow: o.follow, signal: o.signal })[Symbol.asyncIterator]();
  // One batch is written while the next is decoded and projected: at most one write in flight,
  // and writes stay in order (each batch's tables, then its progress row).
  let inflight: Promise<Progress> = Promise.resolve(from);
  const flush = async (): Promise<Progress> => {
    await inflight;
    o.halt?.throwIfAborted();
    const batch = writer.take();
    inflight = writer
      .write(batch)
      .finally(() => pool.release(batch.leases))
      .then((p) => {
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
  const ahead: Promise<ProjectedEntry>[] = [];
  // Adds the oldest projected entry to the batch and writes a full batch; false: told to stop.
  const addOldest = async (): Promise<boolean> => {
    const entry = await ahead.shift()!.catch(async (e: unknown) => {
      // the blocks before a record that cannot be projected are written before it stops all
      if (e instanceof RecordError) await settled();
      throw e;
    });
    writer.add(entry);
    if (writer.pending < o.batchBlocks && writer.bytes < batchBytes) return true;
    await flush();
    if (!o.shouldStop) return true;
    await inflight; // the switch check needs this batch written
    return !(await o.shouldStop());
  };
  // Adds every entry projected so far; false: told to stop on the way.
  const drain = async (): Promise<boolean> => {
    while (ahead.length > 0) if (!(await addOldest())) return false;
    return true;
  };
  try {
    let pending: Promise<IteratorResult<LogEntry>> | undefined;
    let go = true;
    while (go) {
      pending ??= it.next();
      // A lone metadata or verification record is written too (no block may follow soon).
      const busy = writer.entries > 0 || ahead.length > 0;
      const r = busy ? await nextOr(pending, o.batchIdleMs) : await pending;
      if (r === "idle") {
        if (!(await drain())) break;
        await settled();
        go = !(await o.shouldStop?.());
        continue;
      }
      pending = undefined;
      const e = r.done ? undefined : r.value;
      if (!e || (o.untilHeight && e.kind === "block" && e.height > o.untilHeight)) {
        await drain();
        break;
      }
      if (e.kind === "block" && e.height <= from.height) continue;
      const projected = located(e, pool.project(e.payload, e.owned));
      projected.catch(() => {}); // surfaced when its turn comes (addOldest)
      ahead.push(projected);
      if (ahead.length >= AHEAD) go = await addOldest();
    }
    await it.return?.();
    return await settled();
  } finally {
    for (const p of ahead) p.catch(() => {});
    await pool.close();
  }
};
