import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ClickHouseClient } from "@clickhouse/client";
import type { RawLog } from "@explorer/raw-log";
import { isAlive } from "@explorer/service/process";
import {
  currentSet,
  metaDb,
  migrate,
  repointViews,
  setDb,
  stringLiteral,
  switchSet,
} from "@explorer/store";
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

/** A lock table's name: its holder's own, so that taking one never fails or waits on another. */
const LOCK = "reindex_lock_";

/** A lock in `<base>_meta`, as the engine describes it. */
interface Lock {
  readonly name: string;
  /** `pid <n> on <host>`, its table's comment, written with the table in one statement. */
  readonly owner: string;
  readonly since: string;
  /**
   * Made before the engine last started (2 s before, at least: both times are whole seconds, and a
   * lock taken as the engine starts is a live one), so left behind by a restart. A table whose
   * time the engine does not know (0) is never taken for one.
   */
  readonly beforeStart: number;
}

/**
 * Runs `f` holding the re-index lock of `base`, so that one re-index runs at a time (two at once
 * computed the same new set; the second dropped it while the first filled it). A taker creates a
 * table of its own, `<base>_meta.reindex_lock_<pid>_<time>_<random>`, whose comment names it,
 * then looks at the others (and at `reindex_lock`, an earlier version's). Those left behind are
 * dropped: made before the engine last started (a chDB process that died, a server restarted),
 * or naming a process of this host that no longer runs (killed). Any other means a re-index is
 * running: the taker drops its own and is refused, naming it. Each taker's table exists before it
 * looks, so of two that start together the later one to look sees the earlier one's (both may be
 * refused). One left by another host's process that died under a running server is named in the
 * refusal, to drop by hand. `f` is given a check that the lock is still held: a server that
 * restarted under a running re-index makes its lock look left behind, and another may take it.
 */
const withReindexLock = async <T>(
  ch: ClickHouseClient,
  base: string,
  f: (stillHeld: () => Promise<void>) => Promise<T>,
): Promise<T> => {
  const meta = metaDb(base);
  const mine = `${LOCK}${process.pid}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const table = (name: string) => `${meta}.\`${name}\``;
  const release = () => ch.command({ query: `DROP TABLE IF EXISTS ${table(mine)}` });
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${meta}` });
  try {
    await ch.command({
      query: `CREATE TABLE ${table(mine)} (x UInt8) ENGINE = Memory COMMENT ${stringLiteral(`pid ${process.pid} on ${hostname()}`)}`,
    });
    const rs = await ch.query({
      query: `SELECT name, comment AS owner, toString(toTimeZone(metadata_modification_time, 'UTC')) AS since, metadata_modification_time > 0 AND metadata_modification_time < now() - uptime() - 2 AS beforeStart FROM system.tables WHERE database = {meta:String} AND (startsWith(name, {prefix:String}) OR name = 'reindex_lock') AND name != {mine:String} ORDER BY name`,
      query_params: { meta, prefix: LOCK, mine },
      format: "JSONEachRow",
    });
    const others = await rs.json<Lock>();
    const left = others.filter((o) => Number(o.beforeStart) === 1 || heldByTheGone(o.owner));
    for (const o of left) await ch.command({ query: `DROP TABLE IF EXISTS ${table(o.name)}` });
    const running = others.find((o) => !left.includes(o));
    if (running)
      throw new ReindexBusy(
        `another re-index holds ${meta}.${running.name} (${running.owner || "an earlier version's re-index"}, since ${running.since} UTC); if none is running, DROP TABLE ${meta}.${running.name}`,
      );
  } catch (e) {
    await release().catch(() => {}); // the refusal or the failure is what the caller needs
    throw e;
  }
  const stillHeld = async () => {
    const rs = await ch.query({
      query:
        "SELECT count() AS n FROM system.tables WHERE database = {meta:String} AND name = {mine:String}",
      query_params: { meta, mine },
      format: "JSONEachRow",
    });
    const [{ n } = { n: 0 }] = await rs.json<{ n: number | string }>();
    if (Number(n) !== 1)
      throw new Error(
        `the re-index lock ${meta}.${mine} is gone (the engine restarted, or it was dropped by hand): not switching`,
      );
  };
  let out: T;
  try {
    out = await f(stillHeld);
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }
  await release();
  return out;
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
  withReindexLock(ch, base, async (stillHeld) => {
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
    await stillHeld();
    await switchSet(ch, base, set);
    await repointViews(ch, base, set, TABLES);
    say(`switched to ${db} at height ${p.height} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { set, height: p.height };
  });
