import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCurrentSet, projectLog, readProgress } from "@explorer/projector";
import { openClickHouse } from "@explorer/store";
import { REPLAY_OPTIONS, syntheticLog } from "./synthetic-log.ts";

/**
 * The store of the API benches: built from a synthetic log of `target` transactions into a fresh
 * directory, or, with BENCH_API_DIR naming the directory of an earlier run (kept, not deleted),
 * reused as it is (migrated to the current schema). Either way with the `explorer.*` views, as the
 * projector makes them. `kept`: the directory is BENCH_API_DIR's, to
 * keep when the bench ends.
 */
export const openBenchStore = async (target: number) => {
  const kept = process.env.BENCH_API_DIR;
  const dir = kept || mkdtempSync(join(tmpdir(), "bench-api-"));
  const reuse = kept !== undefined && existsSync(join(dir, "chdb"));
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await openCurrentSet(ch, "explorer");
  if (reuse) {
    const p = await readProgress(ch, db);
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
