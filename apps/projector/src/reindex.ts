import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { ClickHouseClient } from "@clickhouse/client";
import type { RawLog } from "@explorer/raw-log";
import { log as logger, progressCadence, progressLine } from "@explorer/service";
import { Fatal } from "@explorer/service/errors";
import {
  describeProcess,
  isGone,
  type ProcessMark,
  parseProcess,
  thisProcess,
} from "@explorer/service/process";
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
import { type Progress, TABLES } from "./writer.ts";

/** Another re-index holds the lock (tagged: the command line says it in one line). */
export class ReindexBusy extends Fatal {
  override readonly name = "ReindexBusy";
  readonly _tag = "ReindexBusy";
}

/** Whether a lock's owner (@explorer/service's describeProcess) is a process surely gone. */
const heldByTheGone = (owner: string, me: ProcessMark): boolean => {
  const m = parseProcess(owner);
  return m !== undefined && isGone(m, me);
};

/**
 * The re-index lock was taken over or dropped while held: the re-index stops, switching nothing
 * (tagged: the command line says it in one line).
 */
export class LockLost extends Fatal {
  override readonly name = "LockLost";
  readonly _tag = "LockLost";
}

/** What a holder of the lock is given. */
interface HeldLock {
  /** Fails (LockLost) unless the lock is still there: checked before the switch. */
  readonly stillHeld: () => Promise<void>;
  /** Aborted (with a LockLost) when the heartbeat finds the lock gone. */
  readonly lost: AbortSignal;
}

/** A lock table's name: its holder's own, so that taking one never fails or waits on another. */
const LOCK = "reindex_lock_";

/** How a re-index keeps its lock alive (see withReindexLock). */
export interface LockTiming {
  /** A holder rewrites its lock's comment this often, which dates its table anew. */
  readonly heartbeatMs: number;
  /** A lock whose table has not been dated anew for this long is left behind. */
  readonly leaseSeconds: number;
}

export const LOCK_TIMING: LockTiming = { heartbeatMs: 10_000, leaseSeconds: 60 };

/** A lock in `<base>_meta`, as the engine describes it. */
interface Lock {
  readonly name: string;
  /**
   * `pid <n> on <host>, boot <id>, pid namespace <n>, started <ticks>` (the last three where Linux
   * gives them): its table's comment, written with the table in one statement.
   */
  readonly owner: string;
  /** When its table was made or last dated anew (its holder's last sign of life). */
  readonly since: string;
  /** Whether the engine knows that time (not 0): a lock it does not date is never silent. */
  readonly dated: number;
  /** Seconds since then. */
  readonly quiet: number;
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
 * then looks at the others (and at `reindex_lock`, an earlier version's). A holder rewrites its
 * table's comment every `heartbeatMs`, which dates the table anew. Those left behind are dropped:
 * not dated anew for `leaseSeconds` (a holder that died, on any host), or not since the engine
 * last started (a chDB process that died, a server restarted), or naming a process of this host,
 * boot and pid namespace that no longer runs (killed) or whose pid another process now has (a
 * supervisor's restart; a restarted container has a new pid namespace: the lease). Any other means a re-index is running: the taker drops its own and is
 * refused, naming it. Each taker's table exists before it looks, so of two that start together
 * the later one to look sees the earlier one's (both may be refused). A dead holder this process
 * cannot see (another host, or another container with the same hostname) is named in the
 * refusal until its lease runs out. `f` is given a check that the lock is still held: a holder
 * that could not date its lock for a lease, or a server restarted under it before its next
 * heartbeat, makes the lock look left behind, and another may take it.
 */
const withReindexLock = async <T>(
  ch: ClickHouseClient,
  base: string,
  timing: LockTiming,
  f: (held: HeldLock) => Promise<T>,
): Promise<T> => {
  const meta = metaDb(base);
  const mine = `${LOCK}${process.pid}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const table = (name: string) => `${meta}.\`${name}\``;
  const me = thisProcess();
  const owner = stringLiteral(describeProcess(me));
  const dateAnew = (signal?: AbortSignal) =>
    ch.command({
      query: `ALTER TABLE ${table(mine)} MODIFY COMMENT ${owner}`,
      ...(signal && { abort_signal: signal }),
    });
  const release = () => ch.command({ query: `DROP TABLE IF EXISTS ${table(mine)}` });
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${meta}` });
  try {
    await ch.command({
      query: `CREATE TABLE ${table(mine)} (x UInt8) ENGINE = Memory COMMENT ${owner}`,
    });
    await dateAnew(); // what the heartbeat does: refused here (a grant missing), not in an hour
    const rs = await ch.query({
      query: `SELECT name, comment AS owner, toString(toTimeZone(metadata_modification_time, 'UTC')) AS since, metadata_modification_time > 0 AS dated, dateDiff('second', metadata_modification_time, now()) AS quiet, dated AND metadata_modification_time < now() - uptime() - 2 AS beforeStart FROM system.tables WHERE database = {meta:String} AND (startsWith(name, {prefix:String}) OR name = 'reindex_lock') AND name != {mine:String} ORDER BY name`,
      query_params: { meta, prefix: LOCK, mine },
      format: "JSONEachRow",
    });
    const others = await rs.json<Lock>();
    const left = others.filter(
      (o) =>
        Number(o.beforeStart) === 1 ||
        (Number(o.dated) === 1 && Number(o.quiet) > timing.leaseSeconds) ||
        heldByTheGone(o.owner, me),
    );
    for (const o of left) await ch.command({ query: `DROP TABLE IF EXISTS ${table(o.name)}` });
    const running = others.find((o) => !left.includes(o));
    if (running) {
      const who = running.owner || "an earlier version's re-index";
      const drop = `DROP TABLE ${meta}.${running.name}`;
      throw new ReindexBusy(
        Number(running.dated) === 1
          ? `another re-index holds ${meta}.${running.name} (${who}, last alive ${running.since} UTC); it is taken over once silent for ${timing.leaseSeconds} s, or ${drop} if none is running`
          : `another re-index holds ${meta}.${running.name} (${who}; the engine does not date it); if none is running, ${drop}`,
      );
    }
  } catch (e) {
    await release().catch(() => {}); // the refusal or the failure is what the caller needs
    throw e;
  }
  const stillHeld = async (signal?: AbortSignal) => {
    const rs = await ch.query({
      query:
        "SELECT count() AS n FROM system.tables WHERE database = {meta:String} AND name = {mine:String}",
      query_params: { meta, mine },
      format: "JSONEachRow",
      ...(signal && { abort_signal: signal }),
    });
    const [{ n } = { n: 0 }] = await rs.json<{ n: number | string }>();
    if (Number(n) !== 1)
      throw new LockLost(
        `the re-index lock ${meta}.${mine} is gone (taken over after ${timing.leaseSeconds} s without a heartbeat, the engine restarted, or dropped by hand): stopping without a switch`,
      );
  };
  // The heartbeat: the comment rewritten dates the table anew. When that fails because the lock is
  // gone (another re-index took it over), `lost` stops this one: no batch is written after the one
  // being written. Any other failure (the server unreachable for a moment) is tried again at the
  // next beat. A stop aborts the beat in flight rather than wait for a server that does not answer.
  const beating = new AbortController();
  const lost = new AbortController();
  const heartbeat = (async () => {
    while (!lost.signal.aborted) {
      await sleep(timing.heartbeatMs, undefined, { signal: beating.signal, ref: false }).catch(
        () => {},
      );
      if (beating.signal.aborted) return;
      await dateAnew(beating.signal).catch(() =>
        stillHeld(beating.signal).catch((e: unknown) => {
          if (e instanceof LockLost) lost.abort(e);
        }),
      );
    }
  })();
  const stop = async () => {
    beating.abort();
    await heartbeat;
  };
  let out: T;
  try {
    out = await f({ stillHeld: () => stillHeld(), lost: lost.signal }).finally(stop);
  } catch (e) {
    await release().catch(() => {}); // the failure is what the caller needs
    throw e;
  }
  // Done (switched): a lock that could not be dropped now is one left behind, which the next
  // re-index takes over (its holder gone, or not dated anew for 60 s); the work stands.
  await release().catch(() => {});
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
  say: (line: string) => void = (l) => logger.info(l.trim()),
  timing: LockTiming = LOCK_TIMING,
): Promise<{ set: number; height: number }> =>
  withReindexLock(ch, base, timing, async ({ stillHeld, lost }) => {
    // Stopped by the caller (o.signal: the batches read are written) or by the lock's loss
    // (another re-index took it over and fills this set: nothing more is written, `halt`).
    const signal = o.signal ? AbortSignal.any([o.signal, lost]) : lost;
    const old = await currentSet(ch, base);
    const set = (old ?? 0) + 1;
    const db = setDb(base, set);
    await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` }); // a previous, unfinished re-index
    await migrate(ch, db);
    let head = (await log.lastHeight()) ?? 0;
    const t0 = Date.now();
    let blocks = 0;
    say(
      `re-indexing into ${db} (current: ${old === undefined ? "none" : setDb(base, old)}), log ends at ${head}`,
    );
    // Progress: the first batch, then a line every 2 s on a terminal (10 s otherwise), and the
    // batch that reaches the head; the head is read again before each catch-up pass.
    const due = progressCadence();
    const onProjected = (pr: Progress, n: number) => {
      blocks += n;
      o.onProjected?.(pr, n);
      if (!due(pr.height >= head)) return;
      const now = Date.now();
      say(
        `  ${progressLine({ height: pr.height, head: Math.max(head, pr.height), blocks, txs: pr.txsTotal, elapsedMs: now - t0 })}`,
      );
    };
    const pass = () =>
      projectLog(ch, db, log, { ...o, signal, halt: lost, follow: false, onProjected });
    let p = await pass();
    // Catch up with what was appended meanwhile, then switch. A replay told to stop ends early
    // as if the log ended there: that set is never switched to, and the lock is let go.
    signal.throwIfAborted();
    for (;;) {
      head = (await log.lastHeight()) ?? 0;
      if (head <= p.height) break;
      p = await pass();
      signal.throwIfAborted();
    }
    await stillHeld();
    await switchSet(ch, base, set);
    // Switched: the new set serves whatever follows. Views left on the old set are repointed by
    // the projector when it moves to the new set (openCurrentSet).
    await repointViews(ch, base, set, TABLES).catch((e: unknown) =>
      say(
        `switched, but repointing the SQL views failed (${(e as Error).message}): the projector repoints them when it moves to ${db}`,
      ),
    );
    say(`switched to ${db} at height ${p.height} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return { set, height: p.height };
  });
