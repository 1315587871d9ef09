import { parentPort, workerData } from "node:worker_threads";
import { type EntryContext, projectEntry } from "./project-entry.ts";

/** A projection worker (see pool.ts): log records in, encoded rows out, in the order asked. */
const ctx = workerData as EntryContext;
parentPort?.on("message", (m: { id: number; payload: Uint8Array }) => {
  try {
    const out = projectEntry(m.payload, ctx);
    parentPort?.postMessage({ id: m.id, out }, [
      ...new Set(out.tables.map(([, b]) => b.buffer as ArrayBuffer)),
    ]);
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
