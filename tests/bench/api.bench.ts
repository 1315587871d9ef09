import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi } from "@explorer/api";
import { recordedBlocks, recordedScenario } from "@explorer/projections/fixtures";
import { projectLog } from "@explorer/projector";
import { encodeRecord } from "@explorer/raw-block";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import Koa from "koa";
import { listenLocal } from "../lib/net.ts";
import { hasWrk, load as loadWith } from "./load.ts";
import { copyAt, denseTemplate } from "./synthetic-log.ts";
import type { Figure } from "./table.ts";

/**
 * The REST API on a store of BENCH_API_TXS transactions (default 1,000,000; built from recorded
 * blocks, see synthetic-log.ts): throughput and p50/p99 at 50 concurrent clients (a separate
 * process, keep-alive) for each endpoint, 5 s each, and beside them, in the same run, a bare Koa
 * endpoint returning a constant.
 */
const CONCURRENCY = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);

const load = (url: string) => loadWith({ url, concurrency: CONCURRENCY, seconds: SECONDS });

export const run = async (): Promise<Figure[]> => {
  const target = Number(process.env.BENCH_API_TXS ?? 1_000_000);
  const template = denseTemplate(recordedBlocks());
  const blocks = Math.ceil(target / template.txs.length);
  const dir = mkdtempSync(join(tmpdir(), "bench-api-"));
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  for (let h = 1; h <= blocks; h++) await log.appendBlock(h, encodeRecord(copyAt(template, h)));
  log.flush();
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await ensureCurrentSet(ch, "explorer");
  const t0 = performance.now();
  const p = await projectLog(ch, db, log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 100,
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
