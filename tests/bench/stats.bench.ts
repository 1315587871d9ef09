import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { buildApi } from "@explorer/api";
import { recordedScenario } from "@explorer/projections/fixtures";
import { projectLog, readProgress } from "@explorer/projector";
import { ensureCurrentSet, openClickHouse, queryRows } from "@explorer/store";
import { hasWrk, load } from "./load.ts";
import { BENCH_API_OPTIONS, servedWithBare } from "./served.ts";
import { REPLAY_OPTIONS, syntheticLog } from "./synthetic-log.ts";
import { type Figure, median } from "./table.ts";

/**
 * `npm run bench -- stats`: /stats/lines/{id} (every chart, its whole range by day) and
 * /stats/counters at 50 clients, twice: computed at every request (each request has a URL of its
 * own, `_=n`, a name the API ignores, so the answer cache never answers; the whole chain's days
 * are still read from the store once per block, as the read model keeps them: the warm-up reads
 * them, so the "alone" and computed figures of whole-chain charts leave that read out), and
 * served as a server serves them (one URL: the answer cache keeps one answer per block), once the
 * engine has ended what the computed run's abandoned requests left it (engineIdle). Beside
 * each, in the same process, a bare Koa endpoint run just before it (the machine is shared). On a synthetic log whose block times span two years
 * (BENCH_STATS_BLOCKS blocks, 2,920: 4 a day, ~730 daily points), and on the store of
 * BENCH_API_DIR when given (the api bench's, kept; migrated, never written).
 * BENCH_STATS_BLOCKS=0 leaves the two-year store out (with BENCH_API_DIR: that store alone).
 * BENCH_STATS_CHARTS keeps only the charts whose id matches it ("^$": the counters alone).
 * Goals (issue 45): charts p99 ≤ 50 ms, counters p99 ≤ 20 ms.
 */
const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_STATS_SECONDS ?? 3);
const BLOCKS = Number(process.env.BENCH_STATS_BLOCKS ?? 2920);
const DAYS = 730;
/** Only the charts whose id matches (a regular expression; "^$": the counters alone). */
const ONLY = new RegExp(process.env.BENCH_STATS_CHARTS ?? "");

/** The synthetic two-year store, in a fresh directory (removed at the end). */
const twoYears = async () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-stats-"));
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const perBlock = 70; // the template's transactions, about: BLOCKS blocks are asked for
  const { log, blocks } = await syntheticLog(join(dir, "log"), BLOCKS * perBlock, {
    spanDays: DAYS,
    validators: true,
  });
  const t0 = performance.now();
  const p = await projectLog(ch, db, log, REPLAY_OPTIONS);
  process.stderr.write(
    `[bench] two-year store: ${p.txsTotal} txs in ${blocks} blocks projected in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  await log.close();
  return { ch, db, dir, name: `two years, ${blocks} blocks, ${p.txsTotal} txs`, remove: true };
};

/** The api bench's kept store (BENCH_API_DIR), as it is. */
const kept = async (dir: string) => {
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const p = await readProgress(ch, db);
  return {
    ch,
    db,
    dir,
    name: `BENCH_API_DIR, ${p.height} blocks, ${p.txsTotal} txs`,
    remove: false,
  };
};

/** What a scoped chart is asked of: the recorded scenario's account, token and a validator. */
const scopes = async (ch: Awaited<ReturnType<typeof openClickHouse>>, db: string) => {
  const rows = await (
    await ch.query({
      query: `SELECT operator_address AS v FROM ${db}.validators FINAL ORDER BY tokens DESC LIMIT 1`,
      format: "JSONEachRow",
    })
  ).json<{ v: string }>();
  return {
    address: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
    contractAddress: recordedScenario().contracts.TestToken!.toLowerCase(),
    validator: rows[0]?.v ?? "",
  };
};

/**
 * Waits until the engine is idle: 8 `SELECT 1` at once (two on each of the store's sessions) all
 * answered within 5 ms, twice in a row (at most 30 s). `settle` waits for the answers, but the
 * queries of requests whose clients left (a run's end) may still run, or wait for a session, in
 * the engine: the next run would queue behind them. Returns the ms waited.
 */
const engineIdle = async (ch: Awaited<ReturnType<typeof openClickHouse>>) => {
  const t0 = performance.now();
  for (let quick = 0; quick < 2 && performance.now() - t0 < 30_000; ) {
    const t = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => queryRows(ch, "SELECT 1")));
    quick = performance.now() - t < 5 ? quick + 1 : 0;
  }
  return performance.now() - t0;
};

const measure = async (store: Awaited<ReturnType<typeof twoYears>>): Promise<Figure[]> => {
  const { ch } = store;
  const { app, runtime } = buildApi(ch, "explorer", BENCH_API_OPTIONS);
  const { server, port, settle, bareServer, barePort } = await servedWithBare(app);
  const base = `http://127.0.0.1:${port}/api/1.0`;
  const get = async (path: string) => (await fetch(`${base}${path}`)).json() as Promise<any>;
  const scope = await scopes(ch, store.db);
  // the scoped sections' charts take their scope (docs/analytics.md)
  const SECTION_SCOPE: Record<string, keyof typeof scope> = {
    address: "address",
    token: "contractAddress",
    validator: "validator",
  };
  const charts: { id: string; q: string }[] = (await get("/stats/lines")).sections.flatMap(
    (s: any) =>
      s.charts.map((c: any) => {
        const name = SECTION_SCOPE[s.id];
        return { id: c.id, q: name ? `?${name}=${scope[name]}` : "" };
      }),
  );
  // one type each of the charts that take ?type= (sql/025 `day_types`)
  charts.push(
    { id: "newMessages", q: "?type=/cosmos.evm.vm.v1.MsgEthereumTx" },
    { id: "newTokenTransfers", q: "?type=CFC-20" },
  );
  const figures: Figure[] = [];
  const bareP99: number[] = [];
  /**
   * Runs at 50 clients of `path`, after a run of the bare endpoint: computed (a URL of its own each
   * request) and served (one URL: from the answer cache but for the first request).
   */
  const run = async (metric: string, path: string, goal: number) => {
    const b = await load({
      url: `http://127.0.0.1:${barePort}/`,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
    });
    bareP99.push(b.p99);
    const sep = path.includes("?") ? "&" : "?";
    const urls = Array.from({ length: 20_000 }, (_, n) => `${base}${path}${sep}_=${n}`);
    // one request at a time: what a new block costs when served (one computation per block)
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await fetch(`${base}${path}${sep}_=alone${i}`).then((x) => x.arrayBuffer());
      alone.push(performance.now() - t);
    }
    const r = await load({ url: urls, concurrency: CONCURRENCY, seconds: SECONDS });
    await settle();
    const idle = await engineIdle(ch);
    // the API's main thread (this process's) during the served run: a stall of it delays every
    // client at once, a busy machine delays wrk and the process alike
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const gc = { ms: 0, max: 0 };
    const gcs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        gc.ms += e.duration;
        gc.max = Math.max(gc.max, e.duration);
      }
    });
    gcs.observe({ entryTypes: ["gc"] });
    loop.enable();
    const c = await load({ url: `${base}${path}`, concurrency: CONCURRENCY, seconds: SECONDS });
    loop.disable();
    gcs.disconnect();
    await settle();
    await engineIdle(ch);
    figures.push({
      bench: "stats",
      metric,
      value: r.p99,
      unit: "ms p99",
      note: `${store.name}: alone ${median(alone).toFixed(1)} ms (median of 5, one at a time); computed each request: p50 ${r.p50.toFixed(1)} ms, ${r.rps.toFixed(0)} req/s; served (answer cache, the engine idle ${idle.toFixed(0)} ms after the computed run): p50 ${c.p50.toFixed(1)}, p99 ${c.p99.toFixed(1)} ms, ${c.rps.toFixed(0)} req/s, event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} max ${(loop.max / 1e6).toFixed(0)} ms, GC ${gc.ms.toFixed(0)} ms (longest ${gc.max.toFixed(0)}); ${r.errors + c.errors} errors; bare just before: p99 ${b.p99.toFixed(1)} ms, ${b.rps.toFixed(0)} req/s; goal p99 ≤ ${goal} ms${r.p99 <= goal ? "" : " (missed when computed each request)"}`,
    });
  };
  // warm-up, not measured: the routes' code compiled, the store's pages read
  await load({
    url: charts.map((c) => `${base}/stats/lines/${c.id}${c.q || "?"}${c.q ? "&" : ""}_=warm`),
    concurrency: 4,
    seconds: 2,
  });
  await run("/stats/counters", "/stats/counters", 20);
  for (const c of charts.filter((x) => ONLY.test(x.id))) {
    const path = `/stats/lines/${c.id}${c.q}`;
    const points = (await get(path)).chart.length;
    const scoped = c.q.startsWith("?type=")
      ? ` ${c.q.slice(1)}`
      : c.q
        ? ` ${c.q.split("=")[0]}=`
        : "";
    await run(`/stats/lines/${c.id}${scoped} (${points} points)`, path, 50);
  }
  await settle();
  await new Promise((r) => server.close(r));
  await new Promise((r) => bareServer.close(r));
  await runtime.dispose();
  await ch.close();
  if (store.remove) rmSync(store.dir, { recursive: true, force: true });
  const sorted = [...bareP99].sort((a, b) => a - b);
  figures.unshift({
    bench: "stats",
    metric: "bare Koa constant",
    value: sorted[Math.floor(sorted.length / 2)]!,
    unit: "ms p99",
    note: `${store.name}: median of ${bareP99.length} runs, one before each row below; ${CONCURRENCY} clients (${hasWrk ? "wrk" : "load-client.ts"}), ${SECONDS} s a run`,
  });
  return figures;
};

export const run = async (): Promise<Figure[]> => {
  const figures = BLOCKS > 0 ? await measure(await twoYears()) : [];
  const dir = process.env.BENCH_API_DIR;
  if (dir) figures.push(...(await measure(await kept(dir))));
  return figures;
};
