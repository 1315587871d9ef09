import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { endpoints, natsRestart, nodePorts, startNode, stopNode } from "@explorer/infra";
import { decodeRecord } from "@explorer/raw-block";
import { EmbeddedLog, NatsLog, type RawLog, streamName } from "@explorer/raw-log";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { afterAll, describe, expect, inject, it } from "vitest";
import { runIngester, startIngester } from "../lib/ingester-process.ts";
import { freePort } from "../lib/net.ts";
import { runProjector, storeChecksums } from "../lib/projector-process.ts";
import { exited, spawnTs } from "../lib/spawn-ts.ts";
import { startActivity } from "./activity.ts";

/**
 * Issue 10's fault run against the reference chain while transactions keep coming: the ingester
 * (reading node 1) writes to JetStream; `explorer start --log nats` projects it into chDB and
 * serves the API. Faults: SIGKILL of the ingester and of the projector+API process (which holds
 * the ClickHouse engine, chDB, so each of those kills is also an engine restart), a NATS restart,
 * node 1 stopped for 30 s. A watcher reads the API the whole time. Afterwards: the log holds each
 * height once and equals a clean ingest; the tables equal a clean replay's (checksums).
 * CHAOS_KILLS (default 20) sets the number of kills.
 */
const natsUrl = inject("natsUrl");
const chainId = "evmd-local-1";
const KILLS = Number(process.env.CHAOS_KILLS ?? 20);
const node1 = endpoints(nodePorts(1));
const node0 = endpoints(nodePorts(0));
const explorerMain = fileURLToPath(new URL("../../apps/explorer/src/main.ts", import.meta.url));
const output: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

const getJson = async (url: string): Promise<{ status: number; body: any } | undefined> => {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return { status: r.status, body: await r.json().catch(() => undefined) };
  } catch {
    return undefined; // not listening (killed, restarting)
  }
};

const headOf = async (cometRpc: string) =>
  Number(
    ((await (await fetch(`${cometRpc}/status`)).json()) as any).result.sync_info
      .latest_block_height,
  );

const readBlocks = async (log: RawLog) => {
  const out: { height: number; record: unknown }[] = [];
  for await (const e of log.read(0, { follow: false }))
    if (e.kind === "block") out.push({ height: e.height, record: decodeRecord(e.payload) });
  return out;
};

describe("faults during a live run", () => {
  const procs = new Set<ChildProcess>();
  afterAll(async () => {
    for (const p of procs) p.kill("SIGKILL");
    await startNode(1).catch(() => {});
  });

  it(`survives ${KILLS} kills, a NATS restart and a 30 s node outage with nothing lost or doubled`, async () => {
    const nc = await connect({ servers: natsUrl });
    await (await jetstreamManager(nc)).streams.delete(streamName(chainId)).catch(() => false);
    await nc.close();
    const start = Math.max(1, (await headOf(node1.cometRpc)) - 10);
    const dataDir = mkdtempSync(join(tmpdir(), "chaos-start-"));
    const [apiPort, ingAdmin, startAdmin] = [await freePort(), await freePort(), await freePort()];
    const ingesterEnv = {
      COMET_RPC_URL: node1.cometRpc,
      COSMOS_REST_URL: node1.rest,
      EVM_RPC_URL: node1.evmRpc,
      LOG_BACKEND: "nats",
      NATS_URL: natsUrl,
      CHAIN_ID: chainId,
      START_HEIGHT: String(start),
      METRICS_PORT: String(ingAdmin),
    };
    const spawnIngester = () => {
      const p = startIngester(ingesterEnv, (l) => output.push(`[ingester] ${l}`));
      procs.add(p);
      return p;
    };
    const spawnStart = () => {
      const p = spawnTs(
        explorerMain,
        ["start", "--log", "nats", "--nats", natsUrl, "--data-dir", dataDir],
        {
          env: {
            ...process.env,
            COMET_RPC_URL: "",
            API_PORT: String(apiPort),
            METRICS_PORT: String(startAdmin),
          },
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      p.stderr?.on("data", (d) => output.push(`[start] ${d}`));
      procs.add(p);
      return p;
    };
    const kill = async (p: ChildProcess) => {
      p.kill("SIGKILL");
      await exited(p);
      procs.delete(p);
    };

    const stopActivity = await startActivity(node0.evmRpc);
    let ingester = spawnIngester();
    let projectorApi = spawnStart();

    // The watcher: every answer of the API is checked against itself.
    const api = `http://127.0.0.1:${apiPort}/api/1.0`;
    const seen = { answers: 0, partial: [] as string[], backwards: [] as string[], maxHeight: 0 };
    const ready: { at: number; phase: string; ingester?: any; start?: any }[] = [];
    let phase = "kills";
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const latest = await getJson(`${api}/blocks/latest`);
        if (latest?.status === 200) {
          const h = latest.body.height as number;
          if (h < seen.maxHeight) seen.backwards.push(`${h} after ${seen.maxHeight}`);
          seen.maxHeight = Math.max(seen.maxHeight, h);
          const txs = await getJson(`${api}/txs?height=${h}&limit=100`);
          if (txs?.status === 200) {
            seen.answers++;
            if (txs.body.docs.length !== latest.body.txs.length)
              seen.partial.push(
                `height ${h}: block lists ${latest.body.txs.length} txs, /txs gives ${txs.body.docs.length}`,
              );
          }
        }
        await sleep(150);
      }
    })();
    // The readiness probe runs on its own, so a slow API answer does not thin its samples.
    const prober = (async () => {
      while (watching) {
        // The phase when the probes leave: an answer that comes back after the node stopped may
        // have been given while it was still stopping.
        const asked = phase;
        const [i, s] = await Promise.all([
          getJson(`http://127.0.0.1:${ingAdmin}/ready`),
          getJson(`http://127.0.0.1:${startAdmin}/ready`),
        ]);
        ready.push({ at: Date.now(), phase: asked, ingester: i, start: s });
        await sleep(150);
      }
    })();

    // The faults.
    const faults: string[] = [];
    // A kill lands at a random moment while the process works: after its admin port answers.
    const upThenRandom = async (adminPort: number) => {
      const t0 = Date.now();
      while (Date.now() - t0 < 60_000) {
        if ((await getJson(`http://127.0.0.1:${adminPort}/health`))?.status === 200) break;
        await sleep(200);
      }
      await sleep(between(500, 4000));
    };
    for (let k = 0; k < KILLS; k++) {
      await upThenRandom(k % 2 === 0 ? ingAdmin : startAdmin);
      if (k % 2 === 0) {
        await kill(ingester);
        ingester = spawnIngester();
        faults.push("kill -9 ingester");
      } else {
        await kill(projectorApi);
        projectorApi = spawnStart();
        faults.push("kill -9 projector+API+chDB engine");
      }
      if (k === Math.floor(KILLS / 3)) {
        phase = "nats-restart";
        await natsRestart(2000);
        faults.push("NATS restart (2 s down)");
        phase = "kills";
      }
      if (k === Math.floor((2 * KILLS) / 3)) {
        await stopNode(1);
        phase = "node-down"; // from here on the node cannot answer
        await sleep(30_000);
        phase = "node-restarting";
        await startNode(1);
        faults.push("node 1 stopped for 30 s");
        phase = "kills";
      }
    }
    const sent = await stopActivity();

    // Finish: the ingester to a fixed height, the projector to the same height.
    await kill(ingester);
    const probe = await NatsLog.open({ servers: natsUrl, chainId });
    const end = ((await probe.lastHeight()) ?? start) + 5;
    await probe.close();
    expect(
      await runIngester({ ...ingesterEnv, STOP_HEIGHT: String(end), METRICS_PORT: "0" }, (l) =>
        output.push(`[ingester] ${l}`),
      ),
      output.join(""),
    ).toBe(0);
    phase = "done";
    const deadline = Date.now() + 180_000;
    while (seen.maxHeight < end && Date.now() < deadline) await sleep(500);
    watching = false;
    await Promise.all([watcher, prober]);
    projectorApi.kill("SIGTERM");
    await exited(projectorApi);
    procs.delete(projectorApi);
    const report = {
      faults: faults.length,
      kills: faults.filter((f) => f.startsWith("kill")).length,
      heights: `${start}..${end}`,
      txsSent: sent,
      apiAnswersChecked: seen.answers,
      // Heights the node's transaction index lacked (a node stop can lose the last one): their
      // receipts were built from the block results, and the log still equals a clean ingest's.
      receiptsBuilt: output.join("").match(/built from the block's results instead/g)?.length ?? 0,
    };
    writeFileSync(
      join(dataDir, "chaos-report.json"),
      JSON.stringify({ ...report, faults }, null, 2),
    );
    process.stderr.write(`[chaos] ${JSON.stringify(report)}\n`);

    // The watcher never saw a partly projected block nor the latest block going back.
    expect(seen.maxHeight, output.join("").slice(-4000)).toBe(end);
    expect(seen.partial).toEqual([]);
    expect(seen.backwards).toEqual([]);
    expect(seen.answers).toBeGreaterThan(50);
    // /ready told the truth: the ingester was not ready while its node was down, and both were
    // ready again at the end.
    const down = ready.filter((r) => r.phase === "node-down" && r.ingester);
    // on failure: what the probes got while the node was down, and the ingester's last words
    const seenDown = ready
      .filter((r) => r.phase === "node-down")
      .map((r) => ({
        at: r.at,
        ingester: r.ingester?.status ?? "no answer",
        start: r.start?.status,
      }));
    expect(
      down.length,
      `${JSON.stringify(seenDown)}\n${output
        .filter((l) => l.startsWith("[ingester]"))
        .slice(-40)
        .join("")}`,
    ).toBeGreaterThan(10);
    const notDown = down.filter(
      (r) => !(r.ingester.status === 503 && r.ingester.body?.checks?.node?.ok === false),
    );
    expect(
      notDown.map((r) => ({ at: r.at, status: r.ingester.status, body: r.ingester.body })),
      `node down from ${down[0]?.at} to ${down.at(-1)?.at}`,
    ).toEqual([]);
    const back = ready.findLastIndex((r) => r.phase === "node-down");
    expect(ready.slice(back).some((r) => r.ingester?.status === 200)).toBe(true);
    expect(ready.filter((r) => r.start?.status === 200).length).toBeGreaterThan(10);

    // The log: every height once, in order, each equal to a clean ingest of the same range.
    const log = await NatsLog.open({ servers: natsUrl, chainId });
    const chaotic = await readBlocks(log);
    await log.close();
    expect(chaotic.map((b) => b.height)).toEqual(
      Array.from({ length: end - start + 1 }, (_, i) => start + i),
    );
    const cleanDir = mkdtempSync(join(tmpdir(), "chaos-clean-log-"));
    expect(
      await runIngester({
        ...ingesterEnv,
        LOG_BACKEND: "embedded",
        LOG_DIR: cleanDir,
        STOP_HEIGHT: String(end),
        METRICS_PORT: "0",
      }),
    ).toBe(0);
    const cleanLog = EmbeddedLog.open({ dir: cleanDir });
    const clean = await readBlocks(cleanLog);
    await cleanLog.close();
    // on failure: the ingester's warnings (each names what the node answered), as a hint
    const warnings = output
      .filter((l) => l.startsWith("[ingester]") && /WARN/.test(l))
      .slice(-60)
      .join("");
    // The same range, height for height, so that the comparison below covers every height.
    expect(clean.map((b) => b.height)).toEqual(chaotic.map((b) => b.height));
    for (let i = 0; i < clean.length; i++)
      expect(chaotic[i]?.record, `height ${clean[i]?.height}\n${warnings}`).toEqual(
        clean[i]?.record,
      );

    // The tables: equal to one clean replay of the same log.
    const cleanStore = mkdtempSync(join(tmpdir(), "chaos-clean-store-"));
    expect(
      await runProjector({
        STORE_URL: `chdb:${cleanStore}`,
        LOG_BACKEND: "nats",
        NATS_URL: natsUrl,
        CHAIN_ID: chainId,
      }),
    ).toBe(0);
    expect(await storeChecksums(`chdb:${join(dataDir, "chdb")}`)).toEqual(
      await storeChecksums(`chdb:${cleanStore}`),
    );
  }, 1_200_000);
});
