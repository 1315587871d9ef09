import { Worker } from "node:worker_threads";
import {
  type EntryContext,
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
  project(payload: Uint8Array): Promise<ProjectedEntry>;
  close(): Promise<void>;
}

export const openPool = (workers: number, ctx: EntryContext): ProjectionPool =>
  workers <= 0 ? inProcess(ctx) : new WorkerPool(workers, ctx);

const inProcess = (ctx: EntryContext): ProjectionPool => ({
  project: async (payload) => projectOrRefuse(payload, ctx),
  close: async () => {},
});

/** Workers run TypeScript through tsx, as the apps do (the boot file registers it). */
const script = new URL("./project-worker-boot.mjs", import.meta.url);

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
      w.on("message", (m: { id: number; out?: ProjectedEntry; error?: string }) => {
        const p = slot.pending.get(m.id);
        slot.pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new RecordError(m.error));
        else p?.resolve(m.out!);
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

  project(payload: Uint8Array): Promise<ProjectedEntry> {
    const slot = this.workers[this.next++ % this.workers.length]!;
    if (slot.dead) return Promise.reject(slot.dead);
    const id = this.id++;
    // An exact copy: a view's whole underlying buffer would be cloned otherwise.
    const copy = new Uint8Array(payload);
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.w.postMessage({ id, payload: copy }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((s) => s.w.terminate()));
  }
}
