import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { attachRpc, buildApi, type RpcSettings } from "@explorer/api";
import { endpoints, nodePorts } from "@explorer/infra";
import { parseUpstreams } from "@explorer/rpc-proxy";
import { openClickHouse } from "@explorer/store";
import { expect } from "vitest";
import { listenLocal } from "./net.ts";
import { runProjector } from "./projector-process.ts";

/** The reference node's JSON-RPC, as RPC_UPSTREAMS names it. */
export const NODE = `${endpoints(nodePorts(0)).evmRpc}|${endpoints(nodePorts(0)).evmWs}`;
export const NODE_HTTP = endpoints(nodePorts(0)).evmRpc;
export const NODE_WS = endpoints(nodePorts(0)).evmWs;
export const OPERATOR_TOKEN = "operator-token";

/** Settings as the API reads them from the environment, for a test. */
export const rpcTestSettings = (over: Partial<RpcSettings> = {}): RpcSettings => ({
  path: "/rpc",
  upstreams: parseUpstreams(NODE),
  privateToken: OPERATOR_TOKEN,
  policy: {},
  rateLimitPerMinute: 1_000_000,
  apiKeys: new Map([["k-test", 1_000_000]]),
  maxBodyBytes: 5 * 1024 * 1024,
  batchLimit: 1000,
  pool: {
    timeoutMs: 120_000, // the shared node can be slow under other suites' load
    retries: 2,
    healthIntervalMs: 2000,
    maxLagBlocks: 10,
    balance: "priority",
  },
  logs: { maxRange: 1_000_000, maxResults: 10_000 },
  cacheBytes: 16 * 1024 * 1024,
  coalesce: 16,
  chainId: 262144n,
  ...over,
});

/**
 * Projects raw-block logs into one chDB directory, each into its own table-set base (`STORE_DB`),
 * then opens it: chDB allows one data directory per process, so every index a test file needs
 * lives in the same directory. The projector runs as its own process, before the test opens it.
 */
export const projectedStore = async (logs: { logDir: string; db: string }[]) => {
  const dir = mkdtempSync(join(tmpdir(), "rpc-store-"));
  for (const { logDir, db } of logs) {
    const out: string[] = [];
    expect(
      await runProjector({ LOG_DIR: logDir, STORE_URL: `chdb:${dir}`, STORE_DB: db }, (l) =>
        out.push(l),
      ),
      out.join(""),
    ).toBe(0);
  }
  return openClickHouse({ kind: "chdb", path: dir });
};

export type RpcServer = Awaited<ReturnType<typeof startRpcServer>>;

/** The API server over a store with the JSON-RPC proxy attached, on a loopback port. */
export const startRpcServer = async (
  ch: Awaited<ReturnType<typeof openClickHouse>>,
  settings: RpcSettings,
  base = "explorer",
) => {
  const { app, runtime } = buildApi(ch, base, {
    prefix: "cosmos",
    nativeCoins: new Map([["test", "atest"]]),
    rateLimitPerMinute: 1_000_000,
    apiKeys: new Map(settings.apiKeys),
  });
  const { server, port } = await listenLocal(app);
  return served(server, port, settings, runtime);
};

/** The proxy alone (no index, no REST API) on a loopback port. */
export const startBareProxy = async (settings: RpcSettings) => {
  const { server, port } = await listenLocal({
    listen: (p: number, h: string, cb: () => void) => createServer().listen(p, h, cb),
  });
  return served(server, port, settings);
};

const served = async (
  server: Server,
  port: number,
  settings: RpcSettings,
  runtime?: ReturnType<typeof buildApi>["runtime"],
) => {
  const rpc = await attachRpc(server, settings, runtime);
  return {
    ...rpc,
    url: `http://127.0.0.1:${port}${settings.path}`,
    wsUrl: `ws://127.0.0.1:${port}${settings.path}`,
    close: async () => {
      await rpc.close();
      await new Promise((r) => server.close(r));
      await runtime?.dispose();
    },
  };
};

/** POSTs a raw body; status, headers and text of the answer. */
export const post = async (
  url: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
) => {
  const r = await fetch(url, { method: "POST", headers, body });
  return { status: r.status, headers: r.headers, text: await r.text() };
};

/** One JSON-RPC call; the whole answer object. */
export const call = async (
  url: string,
  method: string,
  params: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<{ result?: any; error?: { code: number; message: string } }> => {
  const r = await post(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }), {
    "content-type": "application/json",
    ...headers,
  });
  return JSON.parse(r.text);
};
