import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { buildApi } from "@explorer/api";
import { openPool, projectLog } from "@explorer/projector";
import { decodeRecord } from "@explorer/raw-block";
import type { EmbeddedLog } from "@explorer/raw-log";
import {
  ANALYTICS_TABLES,
  migrate,
  openClickHouse,
  readTableColumns,
  switchSet,
  type TableColumns,
} from "@explorer/store";
import { dirBytes } from "./dir-bytes.ts";
import { BENCH_API_OPTIONS } from "./served.ts";
import { REPLAY_OPTIONS, syntheticLog } from "./synthetic-log.ts";
import { type Figure, median } from "./table.ts";

/**
 * The project bench's measurements (see project.bench.ts, which runs this file as a projector
 * process runs, with PROJECTOR_NODE_FLAGS): prints its figures as JSON on stdout.
 *
 * Projector throughput on a large log (BENCH_PROJECT_TXS transactions, default 1,000,000) built
 * from blocks recorded on the reference chain, replayed into embedded ClickHouse (chDB) with the
 * projector's default settings, each run into a fresh table set; beside each run, the rate of
 * merely reading the same log and parsing each record (Brotli + MessagePack into objects, one
 * record after the other, as any reader of the log does: decodeRecord). BENCH_PROJECT_RUNS runs
 * (default 3), medians. Peak memory is the process's high-water RSS during the projection. Also
 * beside each run: the projector's own JavaScript alone (decoding, projecting and encoding the
 * rows on its two workers, with no store), the most the projector could reach on this machine if
 * inserting cost nothing; and the CPU the whole process used per block while projecting.
 */
const highWaterMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};
/** Resets the high-water RSS to the current RSS (Linux: clear_refs 5). */
const resetHighWater = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {}
};

const readAndParse = async (log: EmbeddedLog): Promise<number> => {
  const t = performance.now();
  let n = 0;
  for await (const e of log.read(1, { follow: false })) if (decodeRecord(e.payload)) n++;
  return (performance.now() - t) / 1000 / n;
};

/** Seconds per block of decoding, projecting and encoding every record on the projector's two workers, nothing inserted. */
const projectOnly = async (columns: TableColumns, log: EmbeddedLog): Promise<number> => {
  const pool = openPool(2, { prefix: "cosmos", nativeDenoms: ["atest"], columns });
  const ahead: Promise<unknown>[] = [];
  try {
    const t = performance.now();
    let n = 0;
    for await (const e of log.read(1, { follow: false })) {
      // each entry's memory given back at once, as the projector does once its batch is written
      ahead.push(pool.project(e.payload).then((p) => pool.release(p.lease ? [p.lease] : [])));
      n++;
      if (ahead.length >= 64) await ahead.shift();
    }
    await Promise.all(ahead);
    return (performance.now() - t) / 1000 / n;
  } finally {
    for (const p of ahead) p.catch(() => {}); // a failure is the one already thrown
    await pool.close();
  }
};

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

type ClickHouseClient = Awaited<ReturnType<typeof openClickHouse>>;

const rows = async <T>(ch: ClickHouseClient, query: string): Promise<T[]> =>
  (await (await ch.query({ query, format: "JSONEachRow" })).json()) as T[];

/**
 * The API's record cache of table set `db` (`bench_<n>`) up to `height`, filled by an API as it
 * fills its own (records/record-follower.ts): its directory's bytes (LMDB's pages included).
 */
const recordCacheBytes = async (ch: ClickHouseClient, db: string, dir: string, height: number) => {
  await switchSet(ch, "bench", Number(db.slice("bench_".length)));
  const { runtime, records } = buildApi(ch, "bench", {
    ...BENCH_API_OPTIONS,
    recordCacheDir: dir,
  });
  try {
    await records!.filledTo(db, height);
    return dirBytes(dir);
  } finally {
    await runtime.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Disk per transaction of each copy, after a projection into `db`: the log (the source of truth),
 * every MergeTree table (system.parts, active parts), every key-value table (its RocksDB
 * directory), and the API's record cache (recordCacheBytes).
 */
const diskPerTx = async (
  ch: ClickHouseClient,
  db: string,
  chdbPath: string,
  logDir: string,
  txs: number,
  height: number,
): Promise<Figure[]> => {
  const parts = await rows<{ table: string; bytes: string }>(
    ch,
    `SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = '${db}' AND active GROUP BY table`,
  );
  const kv = await rows<{ name: string; data_paths: string[] }>(
    ch,
    `SELECT name, data_paths FROM system.tables WHERE database = '${db}' AND engine = 'EmbeddedRocksDB'`,
  );
  const cache = await recordCacheBytes(ch, db, join(dirname(chdbPath), "records"), height);
  const tables = [
    ...parts.map((p) => ({ table: p.table, bytes: Number(p.bytes), kind: "system.parts" })),
    ...kv.map((t) => {
      const path = t.data_paths[0] ?? "";
      return {
        table: t.name,
        bytes: dirBytes(isAbsolute(path) ? path : join(chdbPath, path)),
        kind: "RocksDB directory",
      };
    }),
  ].sort((a, b) => b.bytes - a.bytes);
  const logBytes = dirBytes(logDir);
  const store = tables.reduce((s, t) => s + t.bytes, 0);
  const fig = (metric: string, bytes: number, note: string): Figure => ({
    bench: "project",
    metric,
    value: bytes / txs,
    unit: "bytes/tx",
    note,
  });
  return [
    fig("disk: raw-block log", logBytes, `the source of truth; ${txs} txs`),
    ...tables.filter((t) => t.bytes >= txs).map((t) => fig(`disk: ${t.table}`, t.bytes, t.kind)),
    fig(
      "disk: other tables",
      tables.filter((t) => t.bytes < txs).reduce((s, t) => s + t.bytes, 0),
      tables
        .filter((t) => t.bytes < txs)
        .map((t) => t.table)
        .join(", "),
    ),
    fig(
      "disk: API record cache",
      cache,
      "LMDB file: each tx record gzip-compressed, its keys, blocks, the lists (txlist, transfers, logs)",
    ),
    {
      bench: "project",
      metric: "disk: derived / log",
      value: (store + cache) / logBytes,
      unit: "ratio",
      note: `store ${Math.round(store / txs)} + record cache ${Math.round(cache / txs)} bytes/tx, against the log's ${Math.round(logBytes / txs)}; goal ≤ 3`,
    },
  ];
};

/**
 * The analytics tables the projector writes itself (sql/024, 025, 028) but `block_stats` (sql/015): the
 * days it settles read that one with FINAL, which a Null table refuses, so it stays (one row a
 * block, and the read of its batch's days).
 */
const WRITTEN = ["tx_stats", "block_messages", "account_activity", "native_transfer_stats"];
/** Every analytics table but `block_stats`: those written and those ClickHouse fills (table-sets.ts). */
const ANALYTICS = [...WRITTEN, ...ANALYTICS_TABLES];

/**
 * The analytics of `db` taken out, for a run without them: every materialized view that fills an
 * analytics table dropped (found by its target, so that a new one is not missed), and the tables
 * the projector writes Null tables, their inserts discarded, but `block_stats` (WRITTEN). The
 * projector still makes their rows (a few numbers a block): the cost measured is the store's.
 * Returns the views dropped.
 */
const withoutAnalytics = async (ch: ClickHouseClient, db: string) => {
  const views = await rows<{ name: string; target: string }>(
    ch,
    `SELECT name, extract(create_table_query, ' TO [^.]+\\.(\\w+)') AS target FROM system.tables WHERE database = '${db}' AND engine = 'MaterializedView'`,
  );
  const dropped = views.filter((v) => ANALYTICS.includes(v.target)).map((v) => v.name);
  for (const mv of dropped) await ch.command({ query: `DROP VIEW ${db}.${mv}` });
  for (const t of WRITTEN) {
    await ch.command({ query: `DROP TABLE ${db}.${t} SYNC` });
    await ch.command({
      query: `CREATE TABLE ${db}.${t} AS bench_columns.${t} ENGINE = Null`,
    });
  }
  return dropped;
};

/** Fails unless every analytics table of `db` but `block_stats` is empty (none written, no day settled). */
const noAnalytics = async (ch: ClickHouseClient, db: string) => {
  for (const t of ANALYTICS) {
    const [row] = await rows<{ n: string }>(ch, `SELECT count() AS n FROM ${db}.${t}`);
    if (Number(row?.n ?? 0) > 0) throw new Error(`the run without analytics wrote ${db}.${t}`);
  }
};

/**
 * Waits (up to 2 min) until the engine merges no parts: a run that starts while the previous
 * database's merges still run pays for them (seen: whichever of the pair ran first was faster).
 */
const quiesce = async (ch: ClickHouseClient) => {
  for (let t = Date.now(); Date.now() - t < 120_000; await new Promise((r) => setTimeout(r, 200))) {
    const [row] = await rows<{ n: string }>(ch, "SELECT count() AS n FROM system.merges");
    if (Number(row?.n ?? 0) === 0) return;
  }
};

const measure = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_PROJECT_TXS ?? 1_000_000);
  const runs = Number(process.env.BENCH_PROJECT_RUNS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), "bench-project-"));
  const { log, blocks, perBlock } = await syntheticLog(join(dir, "log"), target);
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const read: number[] = []; // seconds per block
  const project: number[] = [];
  const alone: number[] = [];
  const peak: number[] = [];
  const cpu: number[] = []; // ms of the process's CPU per block while projecting
  const bare: number[] = []; // seconds per block without the analytics tables
  const bareCpu: number[] = []; // ms of CPU per block without them
  let txs = 0;
  let disk: Figure[] = [];
  let dropped: string[] = [];
  await migrate(ch, "bench_columns");
  const columns = await readTableColumns(ch, "bench_columns");
  for (let i = 1; i <= runs; i++) {
    alone.push(await projectOnly(columns, log));
    read.push(await readAndParse(log));
    const db = `bench_${i}`;
    // The same log without the analytics tables: before the run with them in even runs, after it
    // in odd ones, so that neither side always has the warmer process.
    const withoutThem = async () => {
      await migrate(ch, `${db}_bare`);
      dropped = await withoutAnalytics(ch, `${db}_bare`);
      await quiesce(ch);
      const cb = cpuMs();
      const tb = performance.now();
      await projectLog(ch, `${db}_bare`, log, REPLAY_OPTIONS);
      bare.push((performance.now() - tb) / 1000 / blocks);
      bareCpu.push((cpuMs() - cb) / blocks);
      await noAnalytics(ch, `${db}_bare`);
      await ch.command({ query: `DROP DATABASE ${db}_bare SYNC` });
    };
    if (i % 2 === 0) await withoutThem();
    await migrate(ch, db);
    await quiesce(ch);
    resetHighWater();
    const c = cpuMs();
    const t = performance.now();
    const p = await projectLog(ch, db, log, REPLAY_OPTIONS);
    project.push((performance.now() - t) / 1000 / blocks);
    cpu.push((cpuMs() - c) / blocks);
    peak.push(highWaterMb());
    txs = p.txsTotal;
    if (i === runs)
      disk = await diskPerTx(ch, db, join(dir, "chdb"), join(dir, "log"), txs, p.height);
    await ch.command({ query: `DROP DATABASE ${db} SYNC` });
    if (i % 2 === 1) await withoutThem();
    process.stderr.write(
      `[bench] run ${i}: read+parse ${(perBlock / read.at(-1)!) | 0} txs/s, projections alone ${(perBlock / alone.at(-1)!) | 0} txs/s, projector ${(perBlock / project.at(-1)!) | 0} txs/s (without analytics ${(perBlock / bare.at(-1)!) | 0}), peak RSS ${peak.at(-1)!.toFixed(0)} MiB\n`,
    );
  }
  await ch.close();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
  const perRun = (xs: number[]) => xs.map((s) => Math.round(perBlock / s)).join(", ");
  const note = `${blocks} blocks, ${txs} txs (${perBlock}/block), median of ${runs}`;
  return [
    {
      bench: "project",
      metric: "projector txs/s",
      value: perBlock / median(project),
      unit: "txs/s",
      note: `${note} (${perRun(project)}); goal ≥ 20000`,
    },
    {
      bench: "project",
      metric: "projector txs/s without the analytics tables",
      value: perBlock / median(bare),
      unit: "txs/s",
      note: `beside each run above (after it in odd runs, before it in even ones), the same log: every analytics table left empty (checked after each run): ${dropped.length} views dropped (${dropped.join(", ")}), ${WRITTEN.join(", ")} Null tables, block_stats kept (${perRun(bare)})`,
    },
    {
      bench: "project",
      metric: "analytics tables' cost per block",
      value: median(project.map((s, i) => (s - bare[i]!) * 1000)),
      unit: "ms",
      note: `projection time per block with them less without them, median of the runs' differences (${project.map((s, i) => ((s - bare[i]!) * 1000).toFixed(2)).join(", ")}); ${perBlock} txs a block`,
    },
    {
      bench: "project",
      metric: "analytics tables' CPU per block",
      value: median(cpu.map((c, i) => c - bareCpu[i]!)),
      unit: "ms",
      note: `the process's CPU time (chDB's threads included) per block with them less without them, median of the runs' differences (${cpu.map((c, i) => (c - bareCpu[i]!).toFixed(2)).join(", ")}); less sensitive to other processes than wall time`,
    },
    {
      bench: "project",
      metric: "projector blocks/s",
      value: 1 / median(project),
      unit: "blocks/s",
      note,
    },
    {
      bench: "project",
      metric: "read+parse txs/s",
      value: perBlock / median(read),
      unit: "txs/s",
      note: `Brotli + MessagePack into objects (decodeRecord), record after record (${perRun(read)})`,
    },
    {
      bench: "project",
      metric: "projections alone txs/s",
      value: perBlock / median(alone),
      unit: "txs/s",
      note: `decode, project and encode on the 2 workers, nothing inserted: the projector's ceiling (${perRun(alone)})`,
    },
    {
      bench: "project",
      metric: "projector / read+parse",
      value: median(read.map((r, i) => r / project[i]!)),
      unit: "ratio",
      note: "median of the runs' ratios; goal ≥ 0.5",
    },
    {
      bench: "project",
      metric: "projector CPU per block",
      value: median(cpu),
      unit: "ms",
      note: `every thread of the process (workers, engine, main) while projecting; cores used ${(median(cpu) / 1000 / median(project)).toFixed(2)} (${cpu.map((x) => x.toFixed(2)).join(", ")})`,
    },
    {
      bench: "project",
      metric: "peak RSS",
      value: Math.max(...peak),
      unit: "MiB",
      note: `whole process (chDB included) while projecting, highest run (${peak.map((x) => x.toFixed(0)).join(", ")}; later runs start from what earlier ones left: see docs/benchmarks.md)`,
    },
    ...disk,
  ];
};

process.stdout.write(`${JSON.stringify(await measure())}\n`);
