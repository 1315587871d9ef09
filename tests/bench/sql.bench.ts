import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi, sqlPolicy } from "@explorer/api";
import { projectLog } from "@explorer/projector";
import { settingsFromEnv } from "@explorer/service";
import { migrate, openRawRunner } from "@explorer/store";
import { bodyText, settingsClause } from "@explorer/store/sql-sandbox";
import { listenLocal } from "../lib/net.ts";
import { openBenchStore } from "./bench-store.ts";
import { hasWrk, type LoadResult, load } from "./load.ts";
import { BENCH_API_OPTIONS } from "./served.ts";
import { REPLAY_OPTIONS, syntheticLog } from "./synthetic-log.ts";
import { type Figure, median, percentile } from "./table.ts";

/**
 * `POST /api/1.0/sql` over the api bench's store (BENCH_API_DIR, else one of BENCH_SQL_TXS
 * transactions built here, default 100,000), with the SQL_* settings' defaults (one thread, low
 * priority, two queries at once; the per-client quota lifted):
 * 1. typical analytical queries, each BENCH_SQL_RUNS times (5) after one unmeasured run: median
 *    and p99 latency (of so few runs, the slowest), rows read (the engine's statistics of a whole
 *    JSON answer on the store: the endpoint's is streamed, without them);
 * 2. the api bench's hot endpoints (50 clients, in turn), BENCH_SQL_ROUNDS rounds (3) of an idle
 *    run and a run while the two slowest queries of 1 run again and again: p50/p99 of each, and
 *    the ratio loaded/idle of each round's p99 (goal ≤ 2);
 * 3. a projector in the same process (as `explorer start` runs it) replaying a synthetic log of
 *    BENCH_SQL_PROJECT_TXS transactions (15,000) into fresh table sets of the same chDB, idle and
 *    while the two queries run: blocks/s.
 * The machine is shared: each loaded run is compared with the idle run just before it.
 */
const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SQL_SECONDS ?? 5);
const RUNS = Math.max(2, Number(process.env.BENCH_SQL_RUNS ?? 5));
const ROUNDS = Math.max(1, Number(process.env.BENCH_SQL_ROUNDS ?? 3));

/** The analytical queries: what a data team asks of the views (sql/README.md). */
const QUERIES: [string, string][] = [
  [
    "daily transactions by message type",
    "SELECT toDate(time) AS day, arrayJoin(message_types) AS type, count() AS txs, countIf(code != 0) AS failed FROM explorer.txs GROUP BY day, type ORDER BY day, txs DESC",
  ],
  [
    "top 10 holders of each token",
    "SELECT contract, holder, token_id, balance FROM explorer.token_holders WHERE balance > 0 ORDER BY contract, balance DESC LIMIT 10 BY contract",
  ],
  [
    // from the tx records (JSON), as the synthetic store has no call traces (internal_txs)
    "gas by called address, EVM txs (top 20)",
    "SELECT simpleJSONExtractString(record, 'to') AS contract, count() AS txs, sum(toUInt64OrZero(simpleJSONExtractString(record, 'gas_used'))) AS gas FROM explorer.txs WHERE is_evm = 1 GROUP BY contract ORDER BY gas DESC LIMIT 20",
  ],
  [
    "token transfers and senders per day and token",
    "SELECT toDate(time) AS day, contract, count() AS transfers, uniqExact(from_address) AS senders FROM explorer.token_transfers GROUP BY day, contract ORDER BY day, transfers DESC",
  ],
  [
    "event logs by topic0 (top 20)",
    "SELECT topics[1] AS topic0, count() AS logs, uniqExact(contract) AS contracts FROM explorer.event_logs GROUP BY topic0 ORDER BY logs DESC LIMIT 20",
  ],
];

/** The api bench's hot endpoints, taken in turn. */
const HOT = ["/blocks/latest", "/txs?limit=10", "/stat", "/validators"];

interface SqlRun {
  readonly status: number;
  readonly ms: number;
  readonly error?: string;
}

/** Two (or more) queries, each run again and again until stopped: how many ended, and how. */
const inLoops = (run: (q: string) => Promise<SqlRun>, queries: readonly string[]) => {
  let stopping = false;
  let ok = 0;
  const failed: string[] = [];
  const loops = queries.map(async (q) => {
    while (!stopping) {
      const r = await run(q);
      if (r.status === 200) ok++;
      else failed.push(`${r.status} ${r.error ?? ""}`.trim());
    }
  });
  return async () => {
    stopping = true;
    await Promise.all(loops);
    return { ok, failed };
  };
};

export const run = async (): Promise<Figure[]> => {
  const { ch, dir, kept, txsTotal, blocks } = await openBenchStore(
    Number(process.env.BENCH_SQL_TXS ?? 100_000),
  );
  // The defaults of SQL_* (or the bench's environment), anyone on loopback, no quota per minute.
  const policy = {
    ...sqlPolicy(settingsFromEnv(process.env)),
    anonymous: "on" as const,
    perMinute: 1e9,
  };
  const { app, runtime } = buildApi(ch, "explorer", {
    ...BENCH_API_OPTIONS,
    // no record cache: the hot answers come from the answer cache, and filling it takes minutes
    sql: policy,
  });
  const { server, port } = await listenLocal(app);
  const base = `http://127.0.0.1:${port}/api/1.0`;
  const sql = async (query: string): Promise<SqlRun> => {
    const t = performance.now();
    const r = await fetch(`${base}/sql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = (await r.json()) as { error?: string };
    return {
      status: r.status,
      ms: performance.now() - t,
      ...(body.error !== undefined && { error: body.error }),
    };
  };
  // The rows a query reads, from the engine's statistics of a whole JSON answer on the store (the
  // endpoint's JSON is streamed from chDB, which says nothing of the rows read).
  const raw = await openRawRunner(ch, 1);
  const rowsRead = async (query: string): Promise<number> => {
    const r = await raw.run(`${query}${settingsClause(policy.limits)}`, "JSON");
    return (JSON.parse(await bodyText(r)) as { statistics: { rows_read: number } }).statistics
      .rows_read;
  };
  const figures: Figure[] = [];

  // 1. The analytical queries.
  const slowest: [number, string][] = [];
  for (const [name, query] of QUERIES) {
    const first = await sql(query);
    if (first.status !== 200) throw new Error(`${name}: ${first.status} ${first.error}`);
    const runs: SqlRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await sql(query));
    const ms = runs.map((r) => r.ms);
    slowest.push([median(ms), query]);
    figures.push({
      bench: "sql",
      metric: name,
      value: median(ms),
      unit: "ms",
      note: `median of ${RUNS} runs; p99 ${percentile(ms, 99).toFixed(0)} ms (the slowest run); ${await rowsRead(query)} rows read; ${runs.filter((r) => r.status !== 200).length} failed`,
    });
  }
  const heavy = slowest
    .sort((a, b) => b[0] - a[0])
    .slice(0, 2)
    .map(([, q]) => q);
  const heavyNames = heavy.map((q) => QUERIES.find(([, x]) => x === q)![0]).join("; ");

  // 2. The hot endpoints, idle and while the two slowest queries run.
  const hot = HOT.map((p) => `${base}${p}`);
  await load({ url: hot, concurrency: CLIENTS, seconds: SECONDS }); // warm-up, not measured
  const idle: LoadResult[] = [];
  const busy: LoadResult[] = [];
  let heavyOk = 0;
  const heavyFailed: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    idle.push(await load({ url: hot, concurrency: CLIENTS, seconds: SECONDS }));
    const stop = inLoops(sql, heavy);
    await new Promise((r) => setTimeout(r, 300)); // both queries under way
    busy.push(await load({ url: hot, concurrency: CLIENTS, seconds: SECONDS }));
    const s = await stop();
    heavyOk += s.ok;
    heavyFailed.push(...s.failed);
  }
  const ratios = busy.map((b, i) => b.p99 / idle[i]!.p99);
  const runsOf = (rs: LoadResult[]) =>
    rs.map((r) => `${r.rps.toFixed(0)} req/s p99 ${r.p99.toFixed(1)}`).join(", ");
  const errors = (rs: LoadResult[]) => rs.reduce((n, r) => n + r.errors, 0);
  figures.push(
    {
      bench: "sql",
      metric: "hot endpoints, idle: p99",
      value: median(idle.map((r) => r.p99)),
      unit: "ms",
      note: `median of ${ROUNDS} runs of ${SECONDS} s, ${CLIENTS} clients (${hasWrk ? "wrk" : "load-client.ts"}) on ${HOT.join(", ")} in turn; p50 ${median(idle.map((r) => r.p50)).toFixed(1)} ms; ${median(idle.map((r) => r.rps)).toFixed(0)} req/s; ${errors(idle)} errors (runs: ${runsOf(idle)})`,
    },
    {
      bench: "sql",
      metric: "hot endpoints, 2 heavy SQL queries running: p99",
      value: median(busy.map((r) => r.p99)),
      unit: "ms",
      note: `the same, while "${heavyNames}" ran in two loops (${heavyOk} ended, ${heavyFailed.length} failed${heavyFailed.length ? `: ${[...new Set(heavyFailed)].join("; ")}` : ""}); p50 ${median(busy.map((r) => r.p50)).toFixed(1)} ms; ${median(busy.map((r) => r.rps)).toFixed(0)} req/s; ${errors(busy)} errors (runs: ${runsOf(busy)})`,
    },
    {
      bench: "sql",
      metric: "hot endpoints p99, heavy SQL / idle",
      value: median(ratios),
      unit: "ratio",
      note: `median of the rounds' ratios, each loaded run against the idle run just before (${ratios.map((r) => r.toFixed(2)).join(", ")}); goal ≤ 2`,
    },
  );

  // 3. A projector in the same process, idle and while the two queries run.
  const logDir = mkdtempSync(join(tmpdir(), "bench-sql-log-"));
  const { log, blocks: logBlocks } = await syntheticLog(
    logDir,
    Number(process.env.BENCH_SQL_PROJECT_TXS ?? 15_000),
  );
  const rate = { idle: [] as number[], busy: [] as number[] };
  let set = 0;
  const project = async () => {
    const target = `bench_sql_${++set}`;
    await migrate(ch, target);
    const t = performance.now();
    await projectLog(ch, target, log, REPLAY_OPTIONS);
    const s = (performance.now() - t) / 1000;
    await ch.command({ query: `DROP DATABASE ${target} SYNC` });
    return logBlocks / s;
  };
  heavyFailed.length = 0;
  for (let round = 0; round < Math.min(ROUNDS, 2); round++) {
    rate.idle.push(await project());
    const stop = inLoops(sql, heavy);
    await new Promise((r) => setTimeout(r, 300));
    rate.busy.push(await project());
    heavyFailed.push(...(await stop()).failed);
  }
  await log.close();
  rmSync(logDir, { recursive: true, force: true });
  const projRatios = rate.busy.map((b, i) => b / rate.idle[i]!);
  figures.push(
    {
      bench: "sql",
      metric: "projector, idle",
      value: median(rate.idle),
      unit: "blocks/s",
      note: `a synthetic log of ${logBlocks} blocks into a fresh table set of the same chDB, in the API's process (runs: ${rate.idle.map((r) => r.toFixed(0)).join(", ")})`,
    },
    {
      bench: "sql",
      metric: "projector, 2 heavy SQL queries running",
      value: median(rate.busy),
      unit: "blocks/s",
      note: `${projRatios.map((r) => r.toFixed(2)).join(", ")} of the idle run just before; ${heavyFailed.length} queries failed (runs: ${rate.busy.map((r) => r.toFixed(0)).join(", ")})`,
    },
    {
      bench: "sql",
      metric: "dataset",
      value: txsTotal,
      unit: "txs",
      note: `${blocks} blocks; SQL limits: ${policy.limits.maxExecutionS} s, ${policy.maxConcurrent} at once, one thread, priority 10, nice 19`,
    },
  );

  await new Promise((r) => server.close(r));
  await raw.close();
  await runtime.dispose();
  await ch.close();
  if (!kept) rmSync(dir, { recursive: true, force: true });
  return figures;
};
