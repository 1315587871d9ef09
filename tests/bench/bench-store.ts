import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCurrentSet, projectLog, readProgress, reindex } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { openClickHouse, setDb } from "@explorer/store";
import { REPLAY_OPTIONS, syntheticLog } from "./synthetic-log.ts";

/**
 * The store of the API benches: built from a synthetic log of `target` transactions into a fresh
 * directory, or, with BENCH_API_DIR naming the directory of an earlier run (kept, not deleted),
 * reused as it is (migrated to the current schema). Either way with the `explorer.*` views, as the
 * projector makes them. `kept`: the directory is BENCH_API_DIR's, to
 * keep when the bench ends. `filled`: a table the bench reads; a reused store built before that
 * table existed (it is empty there) is first re-indexed from its log into a new table set
 * (minutes for 1M transactions).
 */
export const openBenchStore = async (target: number, filled?: string) => {
  const kept = process.env.BENCH_API_DIR;
  const dir = kept || mkdtempSync(join(tmpdir(), "bench-api-"));
  const reuse = kept !== undefined && existsSync(join(dir, "chdb"));
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await openCurrentSet(ch, "explorer");
  if (reuse) {
    let p = await readProgress(ch, db);
    const rows = async (table: string) =>
      Number(
        (
          await (
            await ch.query({
              query: `SELECT count() AS n FROM ${db}.${table}`,
              format: "JSONEachRow",
            })
          ).json<{ n: string }>()
        )[0]?.n ?? 0,
      );
    if (filled && p.txsTotal > 0 && (await rows(filled)) === 0) {
      process.stderr.write(`[bench] ${db}.${filled} is empty (built before it): re-indexing\n`);
      const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
      const { follow: _, ...options } = REPLAY_OPTIONS;
      const { set } = await reindex(ch, "explorer", log, options, (l) =>
        process.stderr.write(`[bench] ${l.trim()}\n`),
      );
      await log.close();
      const next = setDb("explorer", set);
      p = await readProgress(ch, next);
      return { ch, db: next, dir, kept: true, txsTotal: p.txsTotal, blocks: p.height };
    }
    process.stderr.write(
      `[bench] reusing the store in ${dir}: ${p.txsTotal} txs, ${p.height} blocks\n`,
    );
    return { ch, db, dir, kept: true, txsTotal: p.txsTotal, blocks: p.height };
  }
  const { log, blocks } = await syntheticLog(join(dir, "log"), target);
  const t0 = performance.now();
  const p = await projectLog(ch, db, log, REPLAY_OPTIONS);
  process.stderr.write(
    `[bench] store of ${p.txsTotal} txs in ${blocks} blocks projected in ${((performance.now() - t0) / 1000).toFixed(0)} s${kept ? ` (kept in ${dir})` : ""}\n`,
  );
  await log.close();
  return { ch, db, dir, kept: kept !== undefined, txsTotal: p.txsTotal, blocks };
};
