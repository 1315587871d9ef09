import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { recordedScenario } from "@explorer/projections/fixtures";
import Koa from "koa";
import { listenLocal } from "../lib/net.ts";
import { openBenchStore } from "./bench-store.ts";
import { hasWrk, load } from "./load.ts";
import { apiWithRecords, spendingBare, threadMsPer } from "./served.ts";
import { type Figure, median } from "./table.ts";

/**
 * The Etherscan-style API (`/api?module=…&action=…`) on a store of BENCH_ES_TXS transactions
 * (default 100,000, built from a synthetic log), or on a kept one (BENCH_API_DIR, as the api
 * bench): p50/p99 of txlist, tokentx and getLogs for the store's busiest and quietest account
 * (or token), each request a different page (the first pages, and a deep one: the same URL), at 1, 10 and 50
 * clients, each run beside a run of a bare Koa endpoint just before it, and at 50 clients one
 * after it of the bare endpoint spending as much of its thread a request as the API's did an
 * answer (served.ts spendingBare). Goal: p99 ≤ 50 ms at 50 clients, as the clients waited it
 * (load.ts's `waited`; wrk's figure, corrected for coordinated omission, beside). balance is not here: it is
 * the node's eth_getBalance, and this bench has no node.
 */
const SECONDS = Number(process.env.BENCH_ES_SECONDS ?? 4);
const CONCURRENCIES = (process.env.BENCH_ES_CLIENTS ?? "1,10,50").split(",").map(Number);

export const run = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_ES_TXS ?? 100_000);
  const { ch, db, dir, kept, txsTotal, blocks } = await openBenchStore(target, "evm_txs");
  // BENCH_ES_RECORD_CACHE=off: every page cut by the store, as before the lists kept beside it
  const { app, runtime, records, filling } = await apiWithRecords(
    ch,
    db,
    dir,
    blocks,
    process.env.BENCH_ES_RECORD_CACHE === "off",
  );
  const { server, port } = await listenLocal({
    listen: (p, host, cb) => createServer(app.callback()).listen(p, host, cb),
  });
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.body = { status: "1", message: "OK", result: [] };
  });
  const { server: bareServer, port: barePort } = await listenLocal(bare);
  // The bare endpoint spending as much of its thread as the API did per answer in the run before
  const spending = await spendingBare();
  const rows = async <T>(query: string) =>
    (await ch.query({ query, format: "JSONEachRow" })).json<T>();
  // The busiest and quietest account of the EVM transactions' index, and of the transfers'.
  const ends = async (table: string, prefix: string) => {
    const r = await rows<{ key: string; n: string }>(
      `SELECT key, count() AS n FROM ${db}.${table} WHERE startsWith(key, '${prefix}') GROUP BY key ORDER BY n DESC, key`,
    );
    const [busy, quiet] = [r[0]!, r.at(-1)!];
    return {
      busy: { a: busy.key.slice(prefix.length), n: Number(busy.n) },
      quiet: { a: quiet.key.slice(prefix.length), n: Number(quiet.n) },
    };
  };
  const accounts = await ends("evm_tx_lookup", "a:");
  const holders = await ends("transfer_lookup", "a:");
  const token = recordedScenario().contracts.TestToken!.toLowerCase();
  const api = `http://127.0.0.1:${port}/api`;
  /**
   * Every page (to the 10,000-record window) at 91…110 records a page, shuffled: ~2,000 URLs, more
   * than a run asks, so that each request is a different answer, made by the store, not one the
   * answer cache kept (the note says how many it answered).
   */
  const pages = (q: string, records: number) =>
    Array.from({ length: 20 }, (_, i) => 91 + i)
      .flatMap((offset) => {
        const n = Math.max(1, Math.min(Math.ceil(records / offset), Math.floor(10_000 / offset)));
        return Array.from({ length: n }, (_, i) => ({ p: 1 + ((i * 7919) % n), offset }));
      })
      .map((_, i, all) => all[(i * 7919) % all.length]!)
      .map(({ p, offset }) => `${api}?${q}&page=${p}&offset=${offset}`);
  const logsOf = Number(
    (
      await rows<{ n: string }>(
        `SELECT count() AS n FROM ${db}.log_lookup WHERE key = 'c:${token}' AND block_number <= 10000`,
      )
    )[0]?.n ?? 0,
  );
  const cases: [string, string[]][] = [
    [
      `txlist, busiest account (${accounts.busy.n} txs), first page (the same URL: kept)`,
      [`${api}?module=account&action=txlist&address=${accounts.busy.a}&page=1&offset=100`],
    ],
    [
      "txlist, busiest account, a deep page (page 99 of 100 records: the same URL, kept)",
      [`${api}?module=account&action=txlist&address=${accounts.busy.a}&page=99&offset=100`],
    ],
    [
      "txlist, busiest account, a different page each time (to the 10,000 window)",
      pages(`module=account&action=txlist&address=${accounts.busy.a}`, accounts.busy.n),
    ],
    [
      "txlist, busiest account, newest first, a different page each time",
      pages(`module=account&action=txlist&address=${accounts.busy.a}&sort=desc`, accounts.busy.n),
    ],
    [
      `txlist, quietest account (${accounts.quiet.n} txs), a different page each time`,
      pages(`module=account&action=txlist&address=${accounts.quiet.a}`, accounts.quiet.n),
    ],
    [
      `tokentx, busiest holder (${holders.busy.n} transfers), first page (the same URL: kept)`,
      [`${api}?module=account&action=tokentx&address=${holders.busy.a}&page=1&offset=100`],
    ],
    [
      `getLogs of the token over blocks 1-10,000 (${logsOf} logs), first page (the same URL: kept)`,
      [
        `${api}?module=logs&action=getLogs&address=${token}&fromBlock=1&toBlock=10000&page=1&offset=100`,
      ],
    ],
    [
      `tokentx, busiest holder, a different page each time`,
      pages(`module=account&action=tokentx&address=${holders.busy.a}`, holders.busy.n),
    ],
    [
      `tokentx, quietest holder (${holders.quiet.n} transfers), a different page each time`,
      pages(`module=account&action=tokentx&address=${holders.quiet.a}`, holders.quiet.n),
    ],
    [
      "getLogs of the token over blocks 1-10,000, a different page each time",
      pages(`module=logs&action=getLogs&address=${token}&fromBlock=1&toBlock=10000`, logsOf),
    ],
  ];
  // BENCH_ES_ONLY=<text>: only the cases whose name holds it
  const only = process.env.BENCH_ES_ONLY;
  if (only) cases.splice(0, cases.length, ...cases.filter(([name]) => name.includes(only)));
  // Warm-up, not measured: the routes' code compiled, the store's pages in use (the lists' last
  // URLs: a run asks from the first one not asked yet, below).
  await load({ url: cases.flatMap(([, u]) => u.slice(-20)), concurrency: 10, seconds: 2 });
  /** URLs of each case asked so far (and as many again as were in flight): not asked again. */
  const asked = cases.map(() => 0);
  const figures: Figure[] = [];
  const bareP99: number[] = [];
  for (const concurrency of CONCURRENCIES) {
    for (const [c, [name, all]] of cases.entries()) {
      const from = asked[c]! % all.length;
      const urls = [...all.slice(from), ...all.slice(0, from)];
      const b = await load({ url: `http://127.0.0.1:${barePort}/`, concurrency, seconds: SECONDS });
      bareP99.push(b.p99);
      const hits = app.answerCache.hits;
      // Latencies as the clients waited them, wrk's corrected p99 beside (load.ts's `waited`)
      const { r, ms: threadMs } = await threadMsPer(() =>
        load({ url: urls, concurrency, seconds: SECONDS, waited: true }),
      );
      const cached = Math.round((100 * (app.answerCache.hits - hits)) / Math.max(1, r.requests));
      asked[c]! += r.requests + r.errors + concurrency;
      // A failed request is an error, not in the latencies: the goal is then not met.
      const met = r.requests > 0 && r.errors === 0 && r.p99 <= 50;
      const goal = concurrency === 50 ? `; goal p99 ≤ 50 ms: ${met ? "met" : "not met"}` : "";
      spending.spend(threadMs);
      const spent =
        concurrency === 50
          ? await load({ url: spending.url, concurrency, seconds: SECONDS, waited: true })
          : undefined;
      figures.push({
        bench: "etherscan",
        metric: `${name}, ${concurrency} clients`,
        value: r.rps,
        unit: "req/s",
        note: `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (corrected for coordinated omission as wrk does: ${r.p99Corrected?.toFixed(1)}), ${r.errors} errors, ${cached}% from the answer cache; bare endpoint just before: ${b.rps.toFixed(0)} req/s, p50 ${b.p50.toFixed(1)}, p99 ${b.p99.toFixed(1)} ms${goal}; the API's thread ${(threadMs * 1000).toFixed(0)} µs an answer${spent ? `, the bare endpoint spending as much: ${spent.rps.toFixed(0)} req/s, p50 ${spent.p50.toFixed(1)}, p99 ${spent.p99.toFixed(1)} ms` : ""}`,
      });
    }
  }
  await new Promise((r) => server.close(r));
  await new Promise((r) => bareServer.close(r));
  await spending.close();
  await runtime.dispose();
  await ch.close();
  if (!kept) rmSync(dir, { recursive: true, force: true });
  figures.push({
    bench: "etherscan",
    metric: "dataset",
    value: txsTotal,
    unit: "txs",
    note: `${blocks} blocks, load-client.ts (bare runs: ${hasWrk ? "wrk" : "load-client.ts"}), ${SECONDS} s per run; bare p99 median ${median(bareP99).toFixed(1)} ms; record cache ${records ? `filled in ${filling.toFixed(0)} s` : "off"}`,
  });
  return figures;
};
