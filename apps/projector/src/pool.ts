import { Worker } from "node:worker_threads";
import {
  type EntryContext,
  type Lease,
  type ProjectedEntry,
  projectOrRefuse,
  RecordError,
} from "./project-entry.ts";

/**
 * Decodes and projects log records on worker threads (`workers` of them; 0 projects in this
 * thread), so that decoding, projecting and ClickHouse's inserts run side by side. Answers come
 * back as promises in the order asked for; the caller keeps the log order. A record that cannot
 * be projected is a RecordError; a worker that dies fails its records with a plain Error.
 */
export interface ProjectionPool {
  /** `owned`: the payload's memory is the caller's alone, and may be handed over as it is (LogEntry.owned). */
  project(payload: Uint8Array, owned?: boolean): Promise<ProjectedEntry>;
  /** Gives the memory of these entries' rows back to their workers: the rows are written (or dropped). */
  release(leases: readonly Lease[]): void;
  close(): Promise<void>;
}

export const openPool = (workers: number, ctx: EntryContext): ProjectionPool =>
  workers <= 0 ? inProcess(ctx) : new WorkerPool(workers, ctx);

const inProcess = (ctx: EntryContext): ProjectionPool => ({
  project: async (payload) => projectOrRefuse(payload, ctx),
  release: () => {},
  close: async () => {},
});

/** Workers run TypeScript through tsx, as the apps do (the boot file registers it). */
const script = new URL("./project-worker-boot.cjs", import.meta.url);

interface Pending {
  resolve(p: ProjectedEntry): void;
  reject(e: Error): void;
}

class WorkerPool implements ProjectionPool {
  private readonly workers: { w: Worker; pending: Map<number, Pending>; dead?: Error }[] = [];
  private next = 0;
  private id = 0;

  constructor(n: number, ctx: EntryContext) {
    for (let i = 0; i < n; i++) {
      const w = new Worker(script, { workerData: ctx });
      const slot: (typeof this.workers)[number] = { w, pending: new Map<number, Pending>() };
      w.on("message", (m: { id: number; out?: ProjectedEntry; lease?: number; error?: string }) => {
        const p = slot.pending.get(m.id);
        slot.pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new RecordError(m.error));
        else if (m.lease === undefined) p?.resolve(m.out!);
        else p?.resolve({ ...m.out!, lease: { worker: i, id: m.lease } });
      });
      const fail = (e: Error) => {
        slot.dead ??= e;
        for (const p of slot.pending.values()) p.reject(e);
        slot.pending.clear();
      };
      w.on("error", fail);
      w.on("exit", (code) => fail(new Error(`projection worker exited (${code})`)));
      this.workers.push(slot);
    }
  }

  project(payload: Uint8Array, owned = false): Promise<ProjectedEntry> {
    const slot = this.workers[this.next++ % this.workers.length]!;
    if (slot.dead) return Promise.reject(slot.dead);
    const id = this.id++;
    // An owned payload (the embedded log reads each record into memory of its own) is handed
    // over as it is, its buffer no longer usable here, if it is most of that buffer; any other is
    // copied first: a view's whole buffer would be moved, and may hold other entries' bytes.
    const whole =
      owned &&
      payload.buffer instanceof ArrayBuffer &&
      payload.buffer.byteLength <= payload.byteLength + 4096;
    const sent = whole ? payload : new Uint8Array(payload);
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.w.postMessage({ id, payload: sent }, [sent.buffer as ArrayBuffer]);
    });
  }

  release(leases: readonly Lease[]): void {
    const by = new Map<number, number[]>();
    for (const { worker, id } of leases) {
      const ids = by.get(worker);
      if (ids) ids.push(id);
      else by.set(worker, [id]);
    }
    for (const [worker, ids] of by) {
      const slot = this.workers[worker];
      if (slot && !slot.dead) slot.w.postMessage({ release: ids });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((s) => s.w.terminate()));
  }
}
