import { hostname } from "node:os";
import type { ClickHouseClient } from "@clickhouse/client";
import type { RawLog } from "@explorer/raw-log";
import { isAlive } from "@explorer/service/process";
import { currentSet, metaDb, migrate, repointViews, setDb, switchSet } from "@explorer/store";
import { type ProjectOptions, projectLog } from "./project.ts";
import { TABLES } from "./writer.ts";

/** Another re-index holds the lock (tagged: the command line says it in one line). */
export class ReindexBusy extends Error {
  override readonly name = "ReindexBusy";
  readonly _tag = "ReindexBusy";
}

/** Whether a lock's owner (`pid <n> on <host>`) was a process of this host that no longer runs. */
const heldByTheGone = (owner: string): boolean => {
  const m = /^pid (\d+) on (.+)$/.exec(owner);
  return m !== null && m[2] === hostname() && !isAlive(Number(m[1]));
};

/**
 * Runs `f` holding the re-index lock of `base`: a table `<base>_meta.reindex_lock` that only one
 * process can create, holding who took it. Two re-indexes at once computed the same new set; the
 * second dropped it while the first filled it. The table is in memory: an engine that restarted
 * (a chDB process that died, say) leaves it empty, and an empty one is taken over; so is a row
 * left by a process of this host that no longer runs (killed). A row left by another host's
 * re-index that died under a running server is named in the refusal, to drop by hand. (Two
 * re-indexes started at the same moment over one left behind could both take it over.)
 */
const withReindexLock = async <T>(
  ch: ClickHouseClient,
  base: string,
  f: () => Promise<T>,
): Promise<T> => {
  const lock = `${metaDb(base)}.reindex_lock`;
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${metaDb(base)}` });
  try {
    await ch.command({
      query: `CREATE TABLE ${lock} (owner String, since DateTime64(3, 'UTC')) ENGINE = Memory`,
    });
  } catch (e) {
    if (!/already exists/i.test((e as Error).message)) throw e;
    const rs = await ch.query({
      query: `SELECT owner, toString(since) AS since FROM ${lock}`,
      format: "JSONEachRow",
    });
    const [held] = await rs.json<{ owner: string; since: string }>();
    if (held && !heldByTheGone(held.owner))
      throw new ReindexBusy(
        `another re-index holds ${lock} (${held.owner}, since ${held.since} UTC); if none is running, DROP TABLE ${lock}`,
      );
    // Empty (an engine restart), or left by a process of this host that is gone (killed): taken.
    if (held) await ch.command({ query: `TRUNCATE TABLE ${lock}` });
  }
  await ch.insert({
    table: lock,
    values: [{ owner: `pid ${process.pid} on ${hostname()}`, since: Date.now() }],
    format: "JSONEachRow",
  });
  try {
    return await f();
  } finally {
    await ch.command({ query: `DROP TABLE IF EXISTS ${lock}` });
  }
};

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
): Promise<{ set: number; height: number }> =>
  withReindexLock(ch, base, async () => {
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
          `  ${pr.height}/${Math.max(last, pr.height)} · ${rate.toFixed(0)} blocks/s · ${(pr.txsTotal / Math.max(secs, 1e-3)).toFixed(0)} txs/s · ETA ${Math.max(0, (last - pr.height) / Math.max(rate, 1e-9)).toFixed(0)} s`,
        );
        o.onProjected?.(pr, n);
      },
    });
    // Catch up with what was appended meanwhile, then switch. A replay told to stop (o.signal)
    // ends early as if the log ended there: that set is never switched to, and the lock is let go.
    o.signal?.throwIfAborted();
    while (((await log.lastHeight()) ?? 0) > p.height) {
      p = await projectLog(ch, db, log, { ...o, follow: false });
      o.signal?.throwIfAborted();
    }
    await switchSet(ch, base, set);
    await repointViews(ch, base, set, TABLES);
    say(`switched to ${db} at height ${p.height} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { set, height: p.height };
  });
