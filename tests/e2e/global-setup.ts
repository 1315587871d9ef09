import { existsSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import {
  chainStart,
  chainStop,
  endpoints,
  isNatsRunning,
  isNodeRunning,
  natsStart,
  natsStop,
  nodePorts,
  runDir,
} from "@explorer/infra";
import type { TestProject } from "vitest/node";
import { runIngester } from "../lib/ingester-process.ts";
import { configFromEnv } from "../scenario/context.ts";
import { startMetadataServer } from "../scenario/metadata-server.ts";
import { resultFile, runScenario, type ScenarioResult } from "../scenario/run.ts";

declare module "vitest" {
  export interface ProvidedContext {
    scenario: ScenarioResult;
    natsUrl: string;
    /** An embedded raw-block log holding heights 1 … scenario.toHeight, made by the ingester. */
    logDir: string;
  }
}

const log = (m: string) => process.stderr.write(`[setup] ${m}\n`);

/**
 * Starts what the end-to-end tests need, unless it already runs: the reference chain, NATS with
 * JetStream, the NFT metadata server; then runs the scenario once. What this started, it stops
 * (EXPLORER_KEEP_CHAIN=1 keeps the chain and NATS running for a look afterwards).
 */
export default async function setup(project: TestProject) {
  const startedChain = !isNodeRunning(0);
  const startedNats = !isNatsRunning();
  await chainStart();
  const natsUrl = await natsStart();
  const port = Number(new URL(configFromEnv().metadataBaseUrl).port);
  const metadata: Server | undefined = await startMetadataServer(port).catch(
    (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE") return undefined; // one is already serving
      throw e;
    },
  );
  const logDir = join(runDir(), "e2e", "log");
  project.provide("natsUrl", natsUrl);
  project.provide("logDir", logDir);
  const stop = async () => {
    metadata?.close();
    if (process.env.EXPLORER_KEEP_CHAIN === "1") return;
    if (startedChain) await chainStop();
    if (startedNats) await natsStop();
  };
  // EXPLORER_REUSE_SCENARIO=1 (development only): a chain left running by an earlier run keeps
  // its scenario result and ingested log, so one test file can be re-run in seconds.
  if (
    process.env.EXPLORER_REUSE_SCENARIO === "1" &&
    !startedChain &&
    existsSync(resultFile()) &&
    existsSync(logDir)
  ) {
    project.provide("scenario", JSON.parse(readFileSync(resultFile(), "utf8")) as ScenarioResult);
    log("reusing the scenario result and log of an earlier run (EXPLORER_REUSE_SCENARIO=1)");
    return stop;
  }
  // A failed setup stops what it started too: vitest calls the teardown only when setup returns.
  return prepare(project, logDir).then(
    () => stop,
    async (e: unknown) => {
      await stop();
      throw e;
    },
  );
}

/** Runs the scenario once and ingests its heights into `logDir`. */
async function prepare(project: TestProject, logDir: string): Promise<void> {
  const t0 = Date.now();
  // One more run when the first fails: every suite needs the scenario, and a node's passing
  // hiccup (a connection closed under a query) should not fail them all. The scenario is safe to
  // run again on the same chain; a real fault fails the second run too.
  const run = () => runScenario(configFromEnv(), () => {});
  const scenario = await run().catch((e: unknown) => {
    log(
      `the scenario failed; running it once more on the same chain. It said: ${String(e).slice(0, 4000)}`,
    );
    return run();
  });
  log(
    `scenario: ${scenario.sent.length} txs in heights ${scenario.fromHeight}..${scenario.toHeight} (${Math.round((Date.now() - t0) / 1000)} s)`,
  );
  project.provide("scenario", scenario);
  rmSync(logDir, { recursive: true, force: true });
  const e = endpoints(nodePorts(0));
  const t1 = Date.now();
  const output: string[] = [];
  const code = await runIngester(
    {
      COMET_RPC_URL: e.cometRpc,
      COSMOS_REST_URL: e.rest,
      EVM_RPC_URL: e.evmRpc,
      LOG_DIR: logDir,
      STOP_HEIGHT: String(scenario.toHeight),
    },
    (l) => output.push(l),
  );
  if (code !== 0) throw new Error(`the ingester failed (${code}):\n${output.join("")}`);
  log(
    `ingested heights 1..${scenario.toHeight} into ${logDir} (${Math.round((Date.now() - t1) / 1000)} s)`,
  );
}
