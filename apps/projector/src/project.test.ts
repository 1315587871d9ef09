import { spawnSync } from "node:child_process";
import { mkdtempSync, utimesSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import type { EmbeddedLog } from "@explorer/raw-log";
import { Settings, settingsFromEnv } from "@explorer/service";
import { describeProcess, thisProcess } from "@explorer/service/process";
import { currentSet, migrate } from "@explorer/store";
import { Effect, Fiber } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checksums } from "./checksums.ts";
import { projectorParts, reindexWith } from "./main.ts";
import { projectLog } from "./project.ts";
import { LockLost, ReindexBusy, reindex } from "./reindex.ts";
import { sampleStore } from "./sample-store.fixtures.ts";
import { NOTHING_PROJECTED, TABLES } from "./writer.ts";

/**
 * The bundled sample chain (every message type and token standard) projected into chDB: with
 * worker threads and in one thread, in batches of different sizes, the tables are the same; a
 * replay changes nothing; and the lookup entries ClickHouse derives are the keys the API asks.
 */
const dir = mkdtempSync(join(tmpdir(), "projector-test-"));
const options = { prefix: "cosmos", nativeDenoms: ["atest"], batchIdleMs: 50, follow: false };
let ch: ClickHouseClient;
let log: EmbeddedLog;

const rows = async <T>(query: string): Promise<T[]> =>
  (await ch.query({ query, format: "JSONEachRow" })).json<T>();
/** Lookup keys by the row they point at ("height/idx" or "block/log/sub"). */
const keysByRow = async (table: string, cols: string): Promise<Map<string, string[]>> => {
  const out = new Map<string, string[]>();
  for (const r of await rows<{ key: string; at: string }>(
    `SELECT key, concatWithSeparator('/', ${cols}) AS at FROM p_1.${table} FINAL ORDER BY key`,
  ))
    out.set(r.at, [...(out.get(r.at) ?? []), r.key]);
  return out;
};
const sorted = (keys: string[]) => [...new Set(keys)].sort();

beforeAll(async () => {
  ({ log, ch } = await sampleStore(dir, ["p_1", "p_2"]));
  await projectLog(ch, "p_1", log, { ...options, batchBlocks: 500, workers: 0 });
}, 120_000);

// Closing takes well under a second. The directory (~26,000 files: two table sets replayed many
// times) is left to the run's scratch directory, removed when the run ends (vitest-scratch.mjs):
// deleting it here took 17.5 s on a loaded machine, past the hook's 10 s.
afterAll(async () => {
  await ch?.close();
  await log?.close();
});

describe("projector", () => {
  it("writes the same tables with worker threads as in one thread", async () => {
    const p = await projectLog(ch, "p_2", log, { ...options, batchBlocks: 37, workers: 2 });
    expect(p.height).toBe(await log.lastHeight());
    const one = await checksums(ch, "p_1");
    expect(Number(one.txs!.rows)).toBeGreaterThan(50);
    expect(Number(one.nft_metadata!.rows)).toBeGreaterThan(0);
    expect(await checksums(ch, "p_2")).toEqual(one);
  }, 120_000);

  it("halted (a re-index's lock lost), writes no batch after the one being written, and throws why", async () => {
    await migrate(ch, "ph");
    const halt = new AbortController();
    const why = new Error("the lock is gone");
    const heights: number[] = [];
    const run = projectLog(ch, "ph", log, {
      ...options,
      batchBlocks: 20,
      halt: halt.signal,
      onProjected: (p) => {
        heights.push(p.height);
        halt.abort(why);
      },
    });
    await expect(run).rejects.toBe(why);
    expect(heights).toHaveLength(1);
    const [{ h } = { h: "" }] = await rows<{ h: string }>("SELECT max(height) AS h FROM ph.blocks");
    expect(Number(h)).toBe(heights[0]);
    expect(heights[0]).toBeLessThan((await log.lastHeight())!);
  }, 120_000);

  it("writes no progress when an insert fails, only once the batch's other inserts have ended, and a rerun loses nothing", async () => {
    await migrate(ch, "pf");
    // a view over txs that refuses every row: the txs insert fails while the other tables' go on
    await ch.command({ query: "CREATE TABLE pf.refused (x UInt8) ENGINE = Null" });
    await ch.command({
      query:
        "CREATE MATERIALIZED VIEW pf.refuse_mv TO pf.refused AS SELECT throwIf(height > 0, 'txs refused') AS x FROM pf.txs",
    });
    // the whole log in one batch
    const run = projectLog(ch, "pf", log, { ...options, batchBlocks: 1_000_000 });
    await expect(run).rejects.toThrow(/txs refused/);
    const failed = await checksums(ch, "pf");
    const clean = await checksums(ch, "p_1");
    expect(failed.progress!.rows).toBe("0");
    // every table the txs insert does not feed was written whole before the failure was thrown
    for (const t of TABLES.filter((t) => t !== "txs" && t !== "tx_lookup"))
      expect(failed[t], t).toEqual(clean[t]);
    await ch.command({ query: "DROP VIEW pf.refuse_mv" });
    const p = await projectLog(ch, "pf", log, { ...options, batchBlocks: 100 });
    expect(p.height).toBe(await log.lastHeight());
    expect(await checksums(ch, "pf")).toEqual(clean);
  }, 120_000);

  it("goes on from a given progress, whatever the store's says (a replay from the start, resumed)", async () => {
    await migrate(ch, "pr");
    const last = (await log.lastHeight())!;
    const midway = await projectLog(ch, "pr", log, {
      ...options,
      batchBlocks: 100,
      untilHeight: last - 30,
    });
    await projectLog(ch, "pr", log, { ...options, batchBlocks: 100 });
    const whole = await checksums(ch, "pr");
    let blocks = 0;
    const p = await projectLog(ch, "pr", log, {
      ...options,
      batchBlocks: 100,
      from: midway,
      onProjected: (_, n) => {
        blocks += n;
      },
    });
    // the store's own progress was `last`: read from it, nothing would have been projected
    expect([midway.height, p.height, blocks]).toEqual([last - 30, last, 30]);
    expect(await checksums(ch, "pr")).toEqual(whole);
  }, 120_000);

  it("changes nothing when the whole log is replayed again", async () => {
    const before = await checksums(ch, "p_1");
    await projectLog(ch, "p_1", log, { ...options, batchBlocks: 100, from: NOTHING_PROJECTED });
    expect(await checksums(ch, "p_1")).toEqual(before);
  }, 120_000);

  /**
   * A re-index lock as a re-index holding it leaves it (reindex.ts), held by `owner`, made `ago`
   * seconds before now: its table's metadata file dated back, as the engine reads its age.
   */
  const heldLock = async (base: string, owner: string, ago = 0) => {
    const name = `reindex_lock_${owner.replace(/\W/g, "_")}`;
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${base}_meta` });
    await ch.command({
      query: `CREATE TABLE ${base}_meta.${name} (x UInt8) ENGINE = Memory COMMENT '${owner}'`,
    });
    if (ago > 0) {
      const [t] = await rows<{ path: string }>(
        `SELECT metadata_path AS path FROM system.tables WHERE database = '${base}_meta' AND name = '${name}'`,
      );
      const then = new Date(Date.now() - ago * 1000);
      utimesSync(join(dir, "chdb", t!.path), then, then);
    }
    return `${base}_meta.${name}`;
  };
  /** Re-index locks in `<base>_meta`. */
  const locks = async (base: string) =>
    (
      await rows<{ name: string }>(
        `SELECT name FROM system.tables WHERE database = '${base}_meta' AND startsWith(name, 'reindex_lock')`,
      )
    ).map((r) => r.name);

  /** Waits until the engine has run `s` seconds (a lock dated after its start can then be old). */
  const engineUpFor = async (s: number) => {
    const [{ up } = { up: 0 }] = await rows<{ up: number }>("SELECT uptime() AS up");
    if (up < s) await new Promise((r) => setTimeout(r, (s - up) * 1000));
  };
  /** The log, with `first` run before its first `lastHeight` answers (a re-index's first look). */
  const onFirstLook = (first: () => Promise<void>) => {
    let done: Promise<void> | undefined;
    return new Proxy(log, {
      get(target, k) {
        if (k === "lastHeight")
          return async () => {
            done ??= first();
            await done;
            return target.lastHeight();
          };
        const v: unknown = Reflect.get(target, k);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
  };
  it("re-index progress: the first batch, a line every few seconds, the head; not a line per batch", async () => {
    const said: string[] = [];
    const last = (await log.lastHeight())!;
    const t0 = Date.now();
    const done = await reindex(ch, "rp", log, { ...options, batchBlocks: 20 }, (l) => said.push(l));
    const seconds = (Date.now() - t0) / 1000;
    expect(done.height).toBe(last);
    const progress = said.filter((l) => l.includes("blocks/s"));
    expect(last / 20).toBeGreaterThan(10); // batches, many more than lines
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // a line every 2 s on a terminal, 10 s otherwise, besides the first and the last
    expect(progress.length).toBeLessThanOrEqual(2 + Math.ceil(seconds / 2));
    expect(progress.at(-1)).toMatch(
      new RegExp(`height ${last}/${last} \\(100\\.0%\\) .* at the head$`),
    );
    expect(said.at(-1)).toMatch(new RegExp(`^switched to rp_1 at height ${last} in `));
  }, 120_000);

  it("re-indexes one at a time: a second is refused, naming the first; a lock older than the engine (a restart) is taken over", async () => {
    const quiet = () => {};
    const held = await heldLock("lk", "pid 4242 on elsewhere");
    const busy = reindex(ch, "lk", log, { ...options, batchBlocks: 200 }, quiet);
    await expect(busy).rejects.toBeInstanceOf(ReindexBusy);
    await expect(busy).rejects.toThrow(
      new RegExp(
        `another re-index holds ${held.replace(".", "\\.")} \\(pid 4242 on elsewhere, last alive .* UTC\\); it is taken over once silent for 60 s, or DROP TABLE ${held.replace(".", "\\.")} if none is running$`,
      ),
    );
    expect(await currentSet(ch, "lk")).toBeUndefined(); // nothing done
    expect(await locks("lk")).toEqual([held.split(".")[1]]); // the refused one's own is gone
    await ch.command({ query: `DROP TABLE ${held}` });
    // a live lock a few seconds old, made after the engine started, is still a running one
    await engineUpFor(6);
    const older = await heldLock("lk", "pid 4243 on elsewhere", 3);
    await expect(
      reindex(ch, "lk", log, { ...options, batchBlocks: 200 }, quiet),
    ).rejects.toBeInstanceOf(ReindexBusy);
    await ch.command({ query: `DROP TABLE ${older}` });
    // a lock made an hour ago, before this engine started: what an engine's restart leaves
    await heldLock("lk", "pid 4242 on elsewhere", 3600);
    expect(await reindex(ch, "lk", log, { ...options, batchBlocks: 200 }, quiet)).toMatchObject({
      set: 1,
    });
    expect(await locks("lk")).toEqual([]); // released, the old one dropped
  }, 120_000);

  it("a lock whose holder went silent for a lease is taken over, whatever its host; a running re-index's heartbeat keeps its own", async () => {
    const quiet = () => {};
    const fast = { heartbeatMs: 300, leaseSeconds: 2 };
    await engineUpFor(8);
    // made 4 s ago, after the engine started, by a process this one cannot see
    await heldLock("ls", "pid 4242 on elsewhere", 4);
    expect(
      await reindex(ch, "ls", log, { ...options, batchBlocks: 200 }, quiet, fast),
    ).toMatchObject({ set: 1 });
    expect(await locks("ls")).toEqual([]);
    // a re-index that runs longer than the lease (its first look at the log held back 3.5 s)
    let looking!: () => void;
    const looked = new Promise<void>((r) => {
      looking = r;
    });
    const slow = onFirstLook(async () => {
      looking();
      await new Promise((r) => setTimeout(r, 3500));
    });
    const first = reindex(ch, "ls", slow, { ...options, batchBlocks: 200 }, quiet, fast);
    await looked;
    await new Promise((r) => setTimeout(r, 3000));
    await expect(
      reindex(ch, "ls", log, { ...options, batchBlocks: 200 }, quiet, fast),
    ).rejects.toBeInstanceOf(ReindexBusy);
    expect(await first).toMatchObject({ set: 2 });
    expect(await locks("ls")).toEqual([]);
  }, 120_000);

  it("a re-index whose heartbeat finds its lock taken over stops at once, switching nothing", async () => {
    const fast = { heartbeatMs: 300, leaseSeconds: 2 };
    // the lock dropped once taken, as another re-index would, while the first look waits 1.5 s
    const taken = onFirstLook(async () => {
      for (const name of await locks("lh"))
        await ch.command({ query: `DROP TABLE lh_meta.\`${name}\`` });
      await new Promise((r) => setTimeout(r, 1500));
    });
    const run = reindex(ch, "lh", taken, { ...options, batchBlocks: 200 }, () => {}, fast);
    await expect(run).rejects.toBeInstanceOf(LockLost);
    await expect(run).rejects.toThrow(/re-index lock lh_meta\.reindex_lock_\S+ is gone/);
    expect(await rows("SELECT height FROM lh_1.blocks")).toEqual([]); // stopped before a block
    expect(await currentSet(ch, "lh")).toBeUndefined();
  }, 120_000);

  it("two re-indexes that start together over a lock left behind never both run: the other is refused", async () => {
    const quiet = () => {};
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await heldLock("lt", `pid ${gone} on ${hostname()}`);
    const both = await Promise.allSettled([
      reindex(ch, "lt", log, { ...options, batchBlocks: 200 }, quiet),
      reindex(ch, "lt", log, { ...options, batchBlocks: 200 }, quiet),
    ]);
    const ran = both.filter((r) => r.status === "fulfilled");
    const refused = both.filter((r) => r.status === "rejected" && r.reason instanceof ReindexBusy);
    expect(ran.length + refused.length).toBe(2);
    expect(ran.length).toBeLessThanOrEqual(1);
    expect(await currentSet(ch, "lt")).toBe(ran.length === 1 ? 1 : undefined);
    expect(await locks("lt")).toEqual([]);
  }, 120_000);

  it("a re-index whose lock is gone before it switches (a server restarted under it) switches nothing", async () => {
    // the lock dropped once taken (at the re-index's first look at the log), as another would
    let dropped = false;
    const watched = onFirstLook(async () => {
      for (const name of await locks("ll"))
        await ch.command({ query: `DROP TABLE ll_meta.\`${name}\`` });
      dropped = true;
    });
    // no heartbeat in the run: the check before the switch is what finds the lock gone
    const noBeat = { heartbeatMs: 2 ** 31 - 1, leaseSeconds: 60 };
    await expect(
      reindex(ch, "ll", watched, { ...options, batchBlocks: 200 }, () => {}, noBeat),
    ).rejects.toThrow(
      /re-index lock ll_meta\.reindex_lock_\S+ is gone .*: stopping without a switch/,
    );
    expect(dropped).toBe(true);
    expect(await currentSet(ch, "ll")).toBeUndefined();
  }, 120_000);

  it("takes over a re-index lock left by a process of this host that is gone (killed), not one of another host or pid namespace", async () => {
    const quiet = () => {};
    const here = thisProcess();
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await heldLock("lg", `pid ${gone} on ${hostname()}`);
    expect(await reindex(ch, "lg", log, { ...options, batchBlocks: 200 }, quiet)).toMatchObject({
      set: 1,
    });
    // a live holder of this host is respected
    const live = await heldLock("lg", `pid ${process.pid} on ${hostname()}`);
    await expect(
      reindex(ch, "lg", log, { ...options, batchBlocks: 200 }, quiet),
    ).rejects.toBeInstanceOf(ReindexBusy);
    await ch.command({ query: `DROP TABLE ${live}` });
    // a process of another pid namespace with this hostname (a container): not seen, so running
    const other = await heldLock(
      "lg",
      describeProcess({ ...here, pid: gone, pidNs: `${here.pidNs ?? 0}1` }),
    );
    await expect(
      reindex(ch, "lg", log, { ...options, batchBlocks: 200 }, quiet),
    ).rejects.toBeInstanceOf(ReindexBusy);
    await ch.command({ query: `DROP TABLE ${other}` });
    // the lock a running re-index holds names its process so
    let owners: Promise<{ owner: string }[]> | undefined;
    await reindex(ch, "lg", log, { ...options, batchBlocks: 200 }, () => {
      owners ??= rows<{ owner: string }>(
        "SELECT comment AS owner FROM system.tables WHERE database = 'lg_meta' AND startsWith(name, 'reindex_lock')",
      );
      owners.catch(() => {}); // awaited below
    });
    expect(await owners).toEqual([{ owner: describeProcess(here) }]);
  }, 120_000);

  it.runIf(process.platform === "linux")(
    "takes over a re-index lock whose holder's pid another process now has (started at another time)",
    async () => {
      const here = thisProcess();
      await heldLock("lr", describeProcess({ ...here, start: String(Number(here.start) + 1) }));
      expect(
        await reindex(ch, "lr", log, { ...options, batchBlocks: 200 }, () => {}),
      ).toMatchObject({ set: 1 });
      // the same mark with this process's own start time is this live process: refused
      const live = await heldLock("lr", describeProcess(here));
      await expect(
        reindex(ch, "lr", log, { ...options, batchBlocks: 200 }, () => {}),
      ).rejects.toBeInstanceOf(ReindexBusy);
      await ch.command({ query: `DROP TABLE ${live}` });
    },
    120_000,
  );

  it("re-indexes into a new table set with the same tables, then switches to it", async () => {
    const quiet = () => {};
    expect(await reindex(ch, "rx", log, { ...options, batchBlocks: 200 }, quiet)).toMatchObject({
      set: 1,
    });
    const { set, height } = await reindex(ch, "rx", log, { ...options, batchBlocks: 200 }, quiet);
    expect([set, height]).toEqual([2, await log.lastHeight()]);
    expect(await currentSet(ch, "rx")).toBe(2);
    expect(await checksums(ch, "rx_2")).toEqual(await checksums(ch, "p_1"));
    const [viaView] = await rows<{ n: string }>("SELECT count() AS n FROM rx.tx_lookup");
    const [lookups] = await rows<{ n: string }>("SELECT count() AS n FROM rx_2.tx_lookup FINAL");
    expect(viaView).toEqual(lookups);
  }, 120_000);

  it("a re-index told to stop midway ends with the stop, switches nothing and lets the lock go", async () => {
    const quiet = () => {};
    expect(await reindex(ch, "ab", log, { ...options, batchBlocks: 200 }, quiet)).toMatchObject({
      set: 1,
    });
    const stop = new AbortController();
    const stopped = reindex(
      ch,
      "ab",
      log,
      { ...options, batchBlocks: 20, signal: stop.signal, onProjected: () => stop.abort() },
      quiet,
    );
    await expect(stopped).rejects.toThrow(/abort/i);
    expect(await currentSet(ch, "ab")).toBe(1);
    const [partial] = await rows<{ h: string }>("SELECT max(height) AS h FROM ab_2.progress FINAL");
    expect(Number(partial!.h)).toBeLessThan((await log.lastHeight())!);
    // the lock is free: the next re-index runs, and completes
    expect(await reindex(ch, "ab", log, { ...options, batchBlocks: 200 }, quiet)).toMatchObject({
      set: 2,
    });
  }, 120_000);

  it("a re-index run as an effect and interrupted (a stop) is waited for: its lock is gone once the interruption returns", async () => {
    const lock = async () => (await locks("it")).length;
    let progressed!: () => void;
    const firstBatch = new Promise<void>((r) => {
      progressed = r;
    });
    const fiber = Effect.runFork(
      reindexWith((line) => {
        if (line.includes("blocks/s")) progressed();
      }).pipe(
        Effect.provide(
          projectorParts(
            ch,
            log,
            Settings.layer(
              settingsFromEnv({ STORE_DB: "it", BATCH_BLOCKS: "10", BATCH_IDLE_MS: "50" }),
            ),
          ),
        ),
      ),
    );
    await firstBatch;
    expect(await lock()).toBe(1);
    await Effect.runPromise(Fiber.interrupt(fiber));
    expect(await lock()).toBe(0);
    expect(await currentSet(ch, "it")).toBeUndefined(); // nothing switched
  }, 120_000);

  it("the SQL views count a replayed row once, before ClickHouse merges the copies", async () => {
    // replay into the current set with merges stopped: every table then holds two copies of rows
    const tables = [...TABLES, "progress"];
    for (const t of tables) await ch.command({ query: `SYSTEM STOP MERGES rx_2.${t}` });
    try {
      await projectLog(ch, "rx_2", log, { ...options, batchBlocks: 100, from: NOTHING_PROJECTED });
      const count = async (from: string) =>
        Number((await rows<{ n: string }>(`SELECT count() AS n FROM ${from}`))[0]!.n);
      for (const t of tables) {
        const once = await count(`rx_2.${t} FINAL`);
        expect(await count(`rx.${t}`), t).toBe(once);
        // what a data team writes by habit changes nothing either
        expect(await count(`rx.${t} FINAL`), t).toBe(once);
      }
      expect(await count("rx_2.addresses")).toBeGreaterThan(await count("rx.addresses"));
      for (const t of ["tx_hash", "block_records"])
        expect(await count(`rx.${t}`), t).toBe(await count(`rx_2.${t}`));
    } finally {
      for (const t of tables) await ch.command({ query: `SYSTEM START MERGES rx_2.${t}` });
    }
  }, 120_000);

  it("indexes every transaction by account and message type (by hash: tx_hash, below)", async () => {
    const txs = await rows<{
      height: string;
      idx: number;
      addresses: string[];
      message_types: string[];
    }>("SELECT height, idx, addresses, message_types FROM p_1.txs FINAL");
    const lookup = await keysByRow("tx_lookup", "height, idx");
    expect(lookup.size).toBe(txs.length);
    for (const t of txs)
      expect(lookup.get(`${t.height}/${t.idx}`)).toEqual(
        sorted([...t.addresses.map((a) => `a:${a}`), ...t.message_types.map((m) => `m:${m}`)]),
      );
  });

  it("finds every transaction by its hash and EVM hashes in tx_hash, one entry each after replays", async () => {
    const txs = await rows<{ height: string; idx: number; txhash: string; evm_hashes: string[] }>(
      "SELECT height, idx, txhash, evm_hashes FROM p_1.txs FINAL",
    );
    const want = new Map<string, string>();
    for (const t of txs)
      for (const k of [`h:${t.txhash}`, ...t.evm_hashes.map((h) => `e:${h}`)])
        want.set(k, `${t.height}/${t.idx}`);
    expect([...want.keys()].some((k) => k.startsWith("e:"))).toBe(true);
    // A key-value table: no FINAL, a key is one row however often its block was projected.
    const got = await rows<{ key: string; at: string }>(
      "SELECT key, concatWithSeparator('/', height, idx) AS at FROM p_1.tx_hash",
    );
    expect(new Map(got.map((r) => [r.key, r.at]))).toEqual(want);
    expect(got).toHaveLength(want.size);
  });

  it("keeps no tx_records table (022 dropped it: /txs/{hash} reads txs)", async () => {
    const left = await rows<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = 'p_1' AND name LIKE 'tx_records%'",
    );
    expect(left).toEqual([]);
  });

  it("keeps every block's record in block_records under its height, one entry each after replays", async () => {
    const blocks = await rows<{ height: string | number; proposer_cons: string; record: string }>(
      "SELECT height, proposer_cons, record FROM p_1.blocks FINAL",
    );
    const got = await rows<{ key: string; proposer_cons: string; record: string }>(
      "SELECT key, proposer_cons, record FROM p_1.block_records",
    );
    expect(got).toHaveLength(blocks.length);
    // Keys sort as heights do: zero-padded to 12 digits.
    expect(new Map(got.map((r) => [r.key, [r.proposer_cons, r.record]]))).toEqual(
      new Map(blocks.map((b) => [String(b.height).padStart(12, "0"), [b.proposer_cons, b.record]])),
    );
  });

  it("indexes every event log by contract, sender, tx, block and topic0", async () => {
    const logs = await rows<{
      block_number: string;
      log_index: number;
      contract: string;
      origin: string;
      tx_hash: string;
      block_hash: string;
      topics: string[];
    }>(
      "SELECT block_number, log_index, contract, origin, tx_hash, block_hash, topics FROM p_1.event_logs FINAL",
    );
    expect(logs.length).toBeGreaterThan(0);
    const lookup = await keysByRow("log_lookup", "block_number, log_index");
    expect(lookup.size).toBe(logs.length);
    for (const l of logs)
      expect(lookup.get(`${l.block_number}/${l.log_index}`)).toEqual(
        sorted([
          `c:${l.contract}`,
          `o:${l.origin}`,
          `x:${l.tx_hash}`,
          `b:${l.block_hash}`,
          ...(l.topics[0] ? [`t0:${l.topics[0]}`] : []),
        ]),
      );
  });

  it("indexes every token transfer by contract, either side, tx and token id", async () => {
    const transfers = await rows<{
      block_number: string;
      log_index: number;
      sub: number;
      contract: string;
      from_address: string;
      to_address: string;
      tx_hash: string;
      token_id: string;
      token_type: string;
    }>(
      "SELECT block_number, log_index, sub, contract, from_address, to_address, tx_hash, token_id, token_type FROM p_1.token_transfers FINAL",
    );
    expect(transfers.some((t) => t.token_id !== "")).toBe(true);
    const lookup = await keysByRow("transfer_lookup", "block_number, log_index, sub");
    expect(lookup.size).toBe(transfers.length);
    for (const t of transfers)
      expect(lookup.get(`${t.block_number}/${t.log_index}/${t.sub}`)).toEqual(
        sorted([
          `c:${t.contract}`,
          `a:${t.from_address}`,
          `a:${t.to_address}`,
          `f:${t.from_address}`,
          `t:${t.to_address}`,
          `x:${t.tx_hash}`,
          ...(t.token_id ? [`i:${t.contract}:${t.token_id}`] : []),
          // the standard's own keys (sql/023), for Etherscan's tokentx, tokennfttx, token1155tx
          ...(t.token_type
            ? [
                `${t.token_type}:a:${t.from_address}`,
                `${t.token_type}:a:${t.to_address}`,
                `${t.token_type}:c:${t.contract}`,
              ]
            : []),
        ]),
      );
  });
});
