import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachRpc, attachStream, buildApi, inProcessSource, rpcSettings } from "@explorer/api";
import { endpoints, nodePorts } from "@explorer/infra";
import { checksums } from "@explorer/projector";
import { settingsFromEnv } from "@explorer/service";
import { currentSet, openClickHouse, setDb } from "@explorer/store";
import { expect } from "vitest";
import { listenLocal } from "../net.ts";
import { runProjector } from "../projector-process.ts";
import { closeRawClients, rawRequest } from "./raw-http.ts";

/** What must be the same after fuzzing: table checksums, the list of tables, fixed answers. */
export interface Snapshot {
  readonly sums: unknown;
  readonly tables: string[];
  readonly answers: Record<string, string>;
}

/** Fixed questions whose answers must not change (the index is not being fed). */
const FIXED = [
  "/api/1.0/blocks/latest",
  "/api/1.0/stat",
  "/api/1.0/txs?limit=100",
  "/api/1.0/blocks?limit=100&page=2",
  "/api/1.0/validators",
  "/api/1.0/tokens?limit=100",
  "/api/1.0/token-transfers?limit=100",
  "/api/1.0/addresses?limit=100",
];

const node = endpoints(nodePorts(0));

/**
 * The index the fuzz tests attack: the scenario's raw-block log (`logDir`) projected into a fresh
 * chDB directory, served as the API process serves it: REST (`key` an API key with no practical
 * limit), the Socket.IO stream, and the JSON-RPC proxy at /rpc (HTTP and WebSocket) in front of
 * the reference node, with the index answering eth_getLogs; settings from the environment, as in
 * production. `snapshot()` is what "nothing changed" compares.
 */
export const serveIndex = async (logDir: string, key: string) => {
  const dir = mkdtempSync(join(tmpdir(), "api-fuzz-"));
  const out: string[] = [];
  expect(
    await runProjector({ LOG_DIR: logDir, STORE_URL: `chdb:${dir}` }, (l) => out.push(l)),
    out.join(""),
  ).toBe(0);
  const ch = await openClickHouse({ kind: "chdb", path: dir });
  const { app, runtime } = buildApi(ch, "explorer", {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1e9,
    apiKeys: new Map([[key, 1e9]]),
  });
  const listening = await listenLocal(app);
  const server: Server = listening.server;
  const port = listening.port;
  const stream = await attachStream(server, runtime, inProcessSource(), "cosmos");
  const settings = rpcSettings(
    settingsFromEnv({ RPC_UPSTREAMS: `${node.evmRpc}|${node.evmWs}` }),
    new Map([[key, 1e9]]),
  );
  const rpc = await attachRpc(server, settings, runtime);
  const db = setDb("explorer", (await currentSet(ch, "explorer"))!);
  const snapshot = async (): Promise<Snapshot> => {
    const answers: Record<string, string> = {};
    for (const path of FIXED)
      answers[path] = (await rawRequest(port, { method: "GET", path })).text;
    const rs = await ch.query({
      query:
        "SELECT database, name FROM system.tables WHERE database LIKE 'explorer%' ORDER BY 1, 2",
      format: "JSONEachRow",
    });
    const tables = (await rs.json<{ database: string; name: string }>()).map(
      (t) => `${t.database}.${t.name}`,
    );
    return { sums: await checksums(ch, db), tables, answers };
  };
  return {
    port,
    /** The JSON-RPC proxy as attached (its subscription hub, pool) and its settings. */
    rpc,
    rpcSettings: settings,
    snapshot,
    close: async () => {
      closeRawClients();
      await rpc.close();
      await stream.close();
      await new Promise((r) => server.close(r));
      await runtime.dispose();
      await ch.close();
    },
  };
};
