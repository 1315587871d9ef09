import { parentPort, workerData } from "node:worker_threads";
import { RowBinaryWriter } from "@explorer/store";
import { type EntryContext, type ProjectedEntry, projectEntry } from "./project-entry.ts";
import { SharedRows } from "./shared-rows.ts";

/**
 * A projection worker (see pool.ts): log records in, encoded rows out, in the order asked. The rows
 * are encoded in one reused buffer, then copied into shared memory lent to the main thread
 * (shared-rows.ts), which gives it back (`release`) once they are written.
 */
const ctx = workerData as EntryContext;
const writer = new RowBinaryWriter();
const shared = new SharedRows();

/** The entry's rows (views of `writer`'s memory) as views of `into`, a copy of all of them. */
const moved = (out: ProjectedEntry, into: Uint8Array): ProjectedEntry => {
  const view = (b: Uint8Array) => into.subarray(b.byteOffset, b.byteOffset + b.length);
  return {
    ...out,
    tables: out.tables.map(([t, b]) => [t, view(b)] as const),
    block: out.block && { row: view(out.block.row), txsBeforeAt: out.block.txsBeforeAt },
  };
};

parentPort?.on("message", (m: { id: number; payload: Uint8Array } | { release: number[] }) => {
  if ("release" in m) return shared.release(m.release);
  try {
    const out = projectEntry(m.payload, ctx, writer);
    const rows = writer.finish();
    if (rows.byteOffset !== 0) throw new Error("the row writer's memory does not start its buffer");
    const loan = shared.lend(rows);
    parentPort?.postMessage({ id: m.id, out: moved(out, loan.bytes), lease: loan.lease });
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
