import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApi } from "@explorer/api";
import { recordedScenario } from "@explorer/projections/fixtures";
import { projectLog } from "@explorer/projector";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import Koa from "koa";
import { listenLocal } from "../lib/net.ts";
import { spawnTs } from "../lib/spawn-ts.ts";
import { syntheticLog } from "./synthetic-log.ts";
import type { Figure } from "./table.ts";

/**
 * The REST API on a store of BENCH_API_TXS transactions (default 1,000,000; built from recorded
 * blocks, see synthetic-log.ts): throughput and p50/p99 at 50 concurrent clients (a separate
 * process, keep-alive) for each endpoint, 5 s each, and beside them, in the same run, a bare Koa
 * endpoint returning a constant.
 */
const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);

const hasWrk = spawnSync("wrk", ["--version"]).error === undefined;

/** wrk's latency text (e.g. 850.00us, 1.23ms, 1.02s) in ms. */
const ms = (v: string) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
};

/** Load with wrk (Debian's package; one thread, light on the shared cores) when installed, else Node fetch clients. */
const load = (url: string) => (hasWrk ? loadWrk(url) : loadNode(url));

const loadWrk = async (url: string) => {
  // Asynchronously: the server under test runs in this process.
  const child = spawn("wrk", ["-t1", `-c${CONCURRENCY}`, `-d${SECONDS}s`, "--latency", url], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await new Promise((r) => child.once("exit", r));
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p50 = ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? "");
  const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  const errors =
    non2xx + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  return { requests, errors, rps, p50, p99 };
};

const loadNode = (url: string) =>
  new Promise<{ requests: number; errors: number; rps: number; p50: number; p99: number }>(
    (resolve, reject) => {
      const child = spawnTs(
        fileURLToPath(new URL("./load-client.ts", import.meta.url)),
        [url, String(CONCURRENCY), String(SECONDS)],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let out = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.once("exit", (code) =>
        code === 0
          ? resolve(JSON.parse(out.trim()))
          : reject(new Error(`load client failed: ${code}`)),
      );
    },
  );

export const run = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_API_TXS ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), "bench-api-"));
  const { log, blocks } = await syntheticLog(join(dir, "log"), target);
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const t0 = performance.now();
  const p = await projectLog(ch, db, log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 500,
    batchIdleMs: 100,
    follow: false,
  });
  process.stderr.write(
    `[bench] store of ${p.txsTotal} txs in ${blocks} blocks projected in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  await log.close();

  const { app, runtime } = buildApi(ch, "explorer", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e9,
    apiKeys: new Map(),
  });
  const { server, port } = await listenLocal(app);
  const bare = new Koa();
  bare.use((ctx) => {
    ctx.body = { ok: true };
  });
  const { server: bareServer, port: barePort } = await listenLocal(bare);
  const base = `http://127.0.0.1:${port}/api/1.0`;
  const scenario = recordedScenario();
  const txRow = (
    await (
      await ch.query({
        query: `SELECT txhash FROM ${db}.txs WHERE height = ${Math.floor(blocks / 2)} LIMIT 1`,
        format: "JSONEachRow",
      })
    ).json<{ txhash: string }>()
  )[0]!;
  const alice = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
  const token = scenario.contracts.TestToken!.toLowerCase();
  const endpoints: [string, string, "hot" | "lookup" | "list"][] = [
    ["/blocks/latest", "/blocks/latest", "hot"],
    ["/txs?limit=10", "/txs?limit=10", "hot"],
    ["/stat", "/stat", "hot"],
    ["/txs/{hash}", `/txs/${txRow.txhash}`, "lookup"],
    ["/blocks/{height}", `/blocks/${Math.floor(blocks / 3)}`, "lookup"],
    ["/addresses/{address}", `/addresses/${alice}`, "lookup"],
    ["/token-transfers?address=…", `/token-transfers?address=${alice}`, "list"],
    ["/event-logs?contractAddress=…", `/event-logs?contractAddress=${token}`, "list"],
    ["/validators", "/validators", "hot"],
    ["/txs deep page (row 500,000)", "/txs?limit=100&page=5000", "list"],
  ];
  const figures: Figure[] = [];
  const bareResult = await load(`http://127.0.0.1:${barePort}/`);
  figures.push({
    bench: "api",
    metric: "bare Koa constant",
    value: bareResult.rps,
    unit: "req/s",
    note: `p50 ${bareResult.p50.toFixed(1)} ms, p99 ${bareResult.p99.toFixed(1)} ms`,
  });
  for (const [name, path, kind] of endpoints) {
    const r = await load(`${base}${path}`);
    const ratio = r.rps / bareResult.rps;
    const goal =
      kind === "hot"
        ? `; ${ratio.toFixed(2)} of bare (goal ≥ 0.5)`
        : kind === "lookup"
          ? "; goal p99 ≤ 25 ms"
          : "";
    figures.push({
      bench: "api",
      metric: name,
      value: r.rps,
      unit: "req/s",
      note: `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.errors} errors${goal}`,
    });
  }
  await new Promise((r) => server.close(r));
  await new Promise((r) => bareServer.close(r));
  await runtime.dispose();
  await ch.close();
  figures.push({
    bench: "api",
    metric: "dataset",
    value: p.txsTotal,
    unit: "txs",
    note: `${blocks} blocks, ${CONCURRENCY} clients (${hasWrk ? "wrk" : "Node fetch"}), ${SECONDS} s per endpoint`,
  });
  return figures;
};
