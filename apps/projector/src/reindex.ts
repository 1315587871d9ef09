import type { ClickHouseClient } from "@clickhouse/client";
import type { RawLog } from "@explorer/raw-log";
import { currentSet, migrate, repointViews, setDb, switchSet } from "@explorer/store";
import { type ProjectOptions, projectLog } from "./project.ts";
import { TABLES } from "./writer.ts";

/**
 * Re-index: replay the whole log into a new table set while readers keep using the current one,
 * catch up with the head, then switch the current-set pointer in one insert (readers see the
 * switch atomically) and repoint the SQL views. The old set stays until dropped by hand.
 */
export const reindex = async (
  ch: ClickHouseClient,
  base: string,
  log: RawLog,
  o: Omit<ProjectOptions, "follow">,
  say: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<{ set: number; height: number }> => {
  const old = await currentSet(ch, base);
  const set = (old ?? 0) + 1;
  const db = setDb(base, set);
  await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` }); // a previous, unfinished re-index
  await migrate(ch, db);
  const last = (await log.lastHeight()) ?? 0;
  const t0 = Date.now();
  let blocks = 0;
  say(
    `re-indexing into ${db} (current: ${old === undefined ? "none" : setDb(base, old)}), log ends at ${last}`,
  );
  let p = await projectLog(ch, db, log, {
    ...o,
    follow: false,
    onProjected: (pr, n) => {
      blocks += n;
      const secs = (Date.now() - t0) / 1000;
      const rate = blocks / Math.max(secs, 1e-3);
      say(
        `  ${pr.height}/${last} · ${rate.toFixed(0)} blocks/s · ${(pr.txsTotal / Math.max(secs, 1e-3)).toFixed(0)} txs/s · ETA ${Math.max(0, (last - pr.height) / Math.max(rate, 1e-9)).toFixed(0)} s`,
      );
      o.onProjected?.(pr, n);
    },
  });
  // Catch up with what was appended meanwhile, then switch.
  while (((await log.lastHeight()) ?? 0) > p.height)
    p = await projectLog(ch, db, log, { ...o, follow: false });
  await switchSet(ch, base, set);
  await repointViews(ch, base, set, TABLES);
  say(`switched to ${db} at height ${p.height} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { set, height: p.height };
};
