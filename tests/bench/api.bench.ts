import { rmSync } from "node:fs";
import { recordedScenario } from "@explorer/projections/fixtures";
import { openBenchStore } from "./bench-store.ts";
import { hasWrk, load } from "./load.ts";
import { apiWithRecords, servedWithBare, spendingBare, threadMsPer } from "./served.ts";
import { type Figure, median } from "./table.ts";

/**
 * The REST API on a store of BENCH_API_TXS transactions (default 1,000,000; built from recorded
 * blocks, see synthetic-log.ts): throughput and p50/p99 at 50 concurrent clients (a separate
 * process, keep-alive) for each endpoint, BENCH_API_ROUNDS runs (3) of 5 s each, medians printed,
 * and beside each run, in the same process, a bare Koa endpoint returning a constant (measured
 * just before it: the machine is shared, so each ratio compares two neighbouring runs). Lookups are measured twice: the same record again and again
 * (answered from the API's cache after the first time) and a different record every request
 * (each one read from ClickHouse). Lists' latencies are those their clients waited (load.ts's
 * `waited`), with wrk's way of counting them (corrected for coordinated omission) beside.
 */
const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
/** Runs of each endpoint (each after a run of the bare endpoint): the figures are their medians. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_API_ROUNDS ?? 3));

export const run = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_API_TXS ?? 1_000_000);
  const { ch, db, dir, txsTotal, blocks } = await openBenchStore(target);

  // BENCH_API_RECORD_CACHE=off: every lookup read from the store, as before the cache
  const { app, runtime, filling } = await apiWithRecords(
    ch,
    db,
    dir,
    blocks,
    process.env.BENCH_API_RECORD_CACHE === "off",
  );
  const { server, port, settle, bareServer, barePort } = await servedWithBare(app);
  const spending = await spendingBare();
  const base = `http://127.0.0.1:${port}/api/1.0`;
  const scenario = recordedScenario();
  // Records spread over the whole store, in a shuffled order: each request a different one.
  const spread = async <T>(query: string): Promise<T[]> =>
    (await ch.query({ query, format: "JSONEachRow" })).json<T>();
  // More records than the answer cache holds (20,000 answers, 64 MiB), at any place in their
  // blocks: taken in turn, a record comes round again only after the cache has let it go, so each
  // request is a read of the store however fast they come. (The first transaction of each block, as
  // before, was 14,286 records: all kept by the cache once read, so that above ~2,900 req/s the
  // second round of a 5 s run would have been cache hits.)
  const hashes = (
    await spread<{ txhash: string }>(
      `SELECT txhash FROM ${db}.txs WHERE cityHash64(height, idx) % 4 = 0 ORDER BY cityHash64(txhash) LIMIT 200000`,
    )
  ).map((r) => r.txhash);
  /** 1..n, each once, shuffled (a stride of 7919, a prime: every n it does not divide). */
  const shuffled = (n: number) => Array.from({ length: n }, (_, i) => 1 + ((i * 7919) % n));
  // Every block once, shuffled, then again in the same order: 14,286 answers of ~8.7 KB, more
  // than the cache's 64 MiB, so each comes round again after it was let go (the note says how
  // many were not: 0%).
  const heights = shuffled(blocks);
  const alice = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
  const token = scenario.contracts.TestToken!.toLowerCase();
  const deepPages = Array.from({ length: 2000 }, (_, i) => 4000 + ((i * 613) % 2000));
  // Every page of a filtered list, shuffled, at 10, 11 and 12 a page: more answers than the cache
  // keeps before each comes round again (the note says how many it answered).
  const count = async (sql: string) => Number((await spread<{ n: string }>(sql))[0]?.n ?? 0);
  const everyPage = (path: string, rows: number) =>
    [10, 11, 12].flatMap((limit) =>
      shuffled(Math.max(1, Math.ceil(rows / limit))).map(
        (page) => `${path}&limit=${limit}&page=${page}`,
      ),
    );
  const transferPages = everyPage(
    `/token-transfers?address=${alice}`,
    await count(
      `SELECT count() AS n FROM ${db}.token_transfers FINAL WHERE from_address = '${alice}' OR to_address = '${alice}'`,
    ),
  );
  const logPages = everyPage(
    `/event-logs?contractAddress=${token}`,
    await count(`SELECT count() AS n FROM ${db}.event_logs FINAL WHERE contract = '${token}'`),
  );
  type Kind = "hot" | "lookup" | "list";
  // Hot endpoints last: by then the lookups have filled the answer cache (20,000 entries), as on a
  // server that has run a while.
  // [name, paths, kind, Accept-Encoding sent (none: answers as they are)]
  const endpoints: [string, string[], Kind, string?][] = [
    ["/txs/{hash}, same one", [`/txs/${hashes[0]}`], "lookup"],
    ["/txs/{hash}, a different one each time", hashes.map((h) => `/txs/${h}`), "lookup"],
    [
      "/txs/{hash}, a different one each time, gzip accepted (as browsers ask)",
      hashes.map((h) => `/txs/${h}`),
      "lookup",
      "gzip, deflate, br",
    ],
    ["/blocks/{height}, same one", [`/blocks/${Math.floor(blocks / 3)}`], "lookup"],
    ["/blocks/{height}, a different one each time", heights.map((h) => `/blocks/${h}`), "lookup"],
    // The synthetic store has a few dozen accounts: only the one is measured.
    ["/addresses/{address}", [`/addresses/${alice}`], "lookup"],
    ["/token-transfers?address=…", [`/token-transfers?address=${alice}`], "list"],
    ["/event-logs?contractAddress=…", [`/event-logs?contractAddress=${token}`], "list"],
    [
      `/token-transfers?address=…, a different page each time (${transferPages.length} pages)`,
      transferPages,
      "list",
    ],
    [
      `/event-logs?contractAddress=…, a different page each time (${logPages.length} pages)`,
      logPages,
      "list",
    ],
    ["/txs deep page (row 500,000)", ["/txs?limit=100&page=5000"], "list"],
    [
      "/txs deep pages, a different one each time (rows 400,000-600,000)",
      deepPages.map((n) => `/txs?limit=100&page=${n}`),
      "list",
    ],
    [
      "/txs oldest first, deep pages, a different one each time (rows 400,000-600,000)",
      deepPages.map((n) => `/txs?sort=height&limit=100&page=${n}`),
      "list",
    ],
    ["/blocks/latest", ["/blocks/latest"], "hot"],
    ["/txs?limit=10", ["/txs?limit=10"], "hot"],
    [
      "/txs?limit=10, gzip accepted (as browsers ask)",
      ["/txs?limit=10"],
      "hot",
      "gzip, deflate, br",
    ],
    ["/stat", ["/stat"], "hot"],
    ["/validators", ["/validators"], "hot"],
  ];
  // Warm-up, not measured: the routes' code compiled, the store's sessions and pages in use, as
  // on a server that has answered for a while (the first row measured the process's start: a
  // cached record's p99 of 54 ms where the next ones had 10). Transactions the rows below do not
  // ask for, so that none of their answers is cached by it, and two hot answers.
  const warm = (
    await spread<{ txhash: string }>(
      `SELECT txhash FROM ${db}.txs WHERE cityHash64(height, idx) % 4 = 1 LIMIT 2000`,
    )
  ).map((r) => `${base}/txs/${r.txhash}`);
  await load({
    url: [...warm, `${base}/blocks/latest`, `${base}/stat`],
    concurrency: CONCURRENCY,
    seconds: 2,
  });
  const figures: Figure[] = [
    {
      bench: "api",
      metric: "record cache filled from the store",
      value: Number(filling.toFixed(1)),
      unit: "s",
      note: `${txsTotal} txs, ${blocks} blocks (a kept cache only fills what it lacks: ~0 s when reused)`,
    },
  ];
  const bareRps: number[] = [];
  const bareP50: number[] = [];
  const bareP99: number[] = [];
  const clients = { concurrency: CONCURRENCY, seconds: SECONDS };
  // BENCH_API_ONLY: the endpoints whose name holds this text (or one of several, `a|b`), the
  // others left out.
  const only = process.env.BENCH_API_ONLY?.split("|");
  for (const [name, paths, kind, acceptEncoding] of endpoints) {
    if (only && !only.some((o) => name.includes(o))) continue;
    // ROUNDS runs of the endpoint, each just after one of the bare endpoint: medians of the runs.
    const runs: {
      rps: number;
      p50: number;
      p99: number;
      p99Corrected?: number;
      errors: number;
      bare: number;
    }[] = [];
    let cached = 0;
    let requests = 0;
    const spent: { ms: number; p50: number; p99: number }[] = [];
    let from = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const b = await load({ url: `http://127.0.0.1:${barePort}/`, ...clients });
      bareRps.push(b.rps);
      bareP50.push(b.p50);
      bareP99.push(b.p99);
      const hits = app.answerCache.hits;
      // each run goes on in the list where the one before it ended (wrk goes round it in order;
      // the requests still out when it stopped, one per client, were answered and kept meanwhile)
      const order = [...paths.slice(from), ...paths.slice(0, from)];
      // A list's latencies as its clients waited them (its goal: p99 ≤ 50 ms), not wrk's
      // corrected ones (load.ts): printed beside them.
      const waited = kind === "list";
      const { r, ms } = await threadMsPer(() =>
        load({ url: order.map((path) => `${base}${path}`), ...clients, acceptEncoding, waited }),
      );
      await settle();
      if (waited) {
        spending.spend(ms);
        spent.push({ ms, ...(await load({ url: spending.url, ...clients, waited })) });
      }
      cached += app.answerCache.hits - hits;
      requests += r.requests;
      from = (from + r.requests + CONCURRENCY) % paths.length;
      runs.push({ ...r, bare: b.rps });
    }
    const mid = (f: (r: (typeof runs)[number]) => number) => median(runs.map(f));
    const ratio = mid((r) => r.rps / r.bare);
    const goal =
      kind === "hot"
        ? `; ${ratio.toFixed(2)} of bare (median of the runs' ratios, each against the bare run just before; goal ≥ 0.5)`
        : kind === "lookup"
          ? "; goal p99 ≤ 25 ms"
          : `; goal p99 ≤ 50 ms (as the clients waited; corrected for coordinated omission as wrk does: p99 ${mid((r) => r.p99Corrected ?? Number.NaN).toFixed(1)} ms)`;
    const spread =
      runs.length > 1
        ? ` (runs: ${runs.map((r) => `${r.rps.toFixed(0)} req/s p99 ${r.p99.toFixed(1)}`).join(", ")})`
        : "";
    const spendingNote = spent.length
      ? `; the API's thread ${(median(spent.map((x) => x.ms)) * 1000).toFixed(0)} µs a request, the bare endpoint spending as much: p50 ${median(spent.map((x) => x.p50)).toFixed(1)}, p99 ${median(spent.map((x) => x.p99)).toFixed(1)} ms`
      : "";
    figures.push({
      bench: "api",
      metric: name,
      value: mid((r) => r.rps),
      unit: "req/s",
      note: `${runs.length > 1 ? `median of ${runs.length} runs: ` : ""}p50 ${mid((r) => r.p50).toFixed(1)} ms, p99 ${mid((r) => r.p99).toFixed(1)} ms, ${runs.reduce((n, r) => n + r.errors, 0)} errors, ${Math.round((100 * cached) / Math.max(1, requests))}% from the answer cache${goal}${spread}${spendingNote}`,
    });
  }
  await new Promise((r) => server.close(r));
  await new Promise((r) => bareServer.close(r));
  await spending.close();
  await runtime.dispose();
  await ch.close();
  if (!process.env.BENCH_API_DIR) rmSync(dir, { recursive: true, force: true });
  figures.unshift({
    bench: "api",
    metric: "bare Koa constant",
    value: median(bareRps),
    unit: "req/s",
    // its latency is the host's floor for every endpoint (a noisy host raises it)
    note: `median of ${bareRps.length} runs, one before each run of an endpoint; p50 ${median(bareP50).toFixed(1)} ms, p99 ${median(bareP99).toFixed(1)} ms (medians of the runs)`,
  });
  figures.push({
    bench: "api",
    metric: "dataset",
    value: txsTotal,
    unit: "txs",
    note: `${blocks} blocks, ${CONCURRENCY} clients (${hasWrk ? "wrk; lists: load-client.ts" : "load-client.ts"}), ${ROUNDS} runs of ${SECONDS} s per endpoint`,
  });
  return figures;
};
