import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoints, nodePorts } from "@explorer/infra";
import { JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deployAndEmit } from "../lib/emitter.ts";
import { runIngester } from "../lib/ingester-process.ts";
import {
  call,
  NODE_HTTP,
  post,
  projectedStore,
  type RpcServer,
  rpcTestSettings,
  startBareProxy,
  startRpcServer,
} from "../lib/rpc-fixture.ts";

/**
 * Issue 8: eth_getLogs answered from the index (ClickHouse event logs) is the node's answer byte
 * for byte, on many ranges and filters: over the scenario's blocks (every contract and token
 * standard), and over a window of blocks where heidi's Emitter logs 4-, 2-, 1- and 0-topic events
 * from several transactions per block. Each comparison runs twice: through a proxy with no node
 * behind it (so the index alone answered) and through the proxy in front of the node (index,
 * node, or both for ranges that reach past the index).
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const servers: RpcServer[] = [];
let store: Awaited<ReturnType<typeof projectedStore>>;
let scenarioProxy: RpcServer;
let scenarioIndexOnly: RpcServer;
let windowProxy: RpcServer;
let windowIndexOnly: RpcServer;
let emitter: Awaited<ReturnType<typeof deployAndEmit>>;
let window: { from: number; to: number };

const body = (filter: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [filter] });

/** Raw answer texts to eth_getLogs with this filter. */
const answer = async (url: string, filter: unknown) => (await post(url, body(filter))).text;

/** The first difference of two answers, shown around where it is. */
const expectText = (mine: string, node: string, filter: unknown) => {
  if (mine === node) return;
  let i = 0;
  while (mine[i] === node[i]) i++;
  const around = (t: string) => t.slice(Math.max(0, i - 300), i + 200);
  expect.fail(
    `${JSON.stringify(filter)}: answers differ at ${i}\nproxy: …${around(mine)}\nnode:  …${around(node)}`,
  );
};

/**
 * The proxies' answers (index alone, and in front of the node) are the node's text; the node is
 * asked once. For ranges ending at the head, a new block between the calls is retried.
 */
const expectSame = async (urls: string[], filter: unknown) => {
  for (let attempt = 0; ; attempt++) {
    const [node, ...mine] = await Promise.all([NODE_HTTP, ...urls].map((u) => answer(u, filter)));
    if (mine.every((m) => m === node) || attempt === 3) {
      for (const m of mine) expectText(m, node!, filter);
      return;
    }
  }
};

/** A deterministic sequence of numbers in [0, 1). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const hex = (n: number) => `0x${n.toString(16)}`;

const nodeLogs = async (from: number, to: number, extra: object = {}) =>
  (await call(NODE_HTTP, "eth_getLogs", [{ fromBlock: hex(from), toBlock: hex(to), ...extra }]))
    .result as { address: string; topics: string[]; blockNumber: string; blockHash: string }[];

/** Ranges over [low, high]: whole, single blocks with logs and around them, random, reversed. */
const rangesOver = (low: number, high: number, logHeights: number[], seed: number) => {
  const next = random(seed);
  const out: [number, number][] = [
    [low, high],
    [low, low],
    [high, high],
    [high, low],
  ];
  for (const h of logHeights) out.push([h, h], [Math.max(low, h - 1), Math.min(high, h + 1)]);
  for (let i = 0; i < 30; i++) {
    const a = low + Math.floor(next() * (high - low + 1));
    const b = a + Math.floor(next() * (high - a + 1));
    out.push([a, b]);
  }
  return out;
};

/** Filters built from the logs themselves: each address, topic positions, OR lists, too many positions. */
const filtersFrom = (logs: { address: string; topics: string[] }[]) => {
  const addresses = [...new Set(logs.map((l) => l.address))];
  const topic0 = [...new Set(logs.map((l) => l.topics[0]).filter(Boolean))] as string[];
  const topic1 = [...new Set(logs.map((l) => l.topics[1]).filter(Boolean))] as string[];
  const upper = (s: string) => `0x${s.slice(2).toUpperCase()}`;
  return [
    {},
    ...addresses.map((address) => ({ address })),
    { address: addresses.slice(0, 2) },
    { address: addresses.slice(0, 1).map(upper) },
    ...topic0.map((t) => ({ topics: [t] })),
    { topics: [topic0.slice(0, 2)] },
    { topics: [[topic0[0], null]] },
    { topics: [null, topic1[0]] },
    { topics: [topic0[0], []] },
    { topics: [upper(topic0[0]!), null, null, null] },
    { topics: [null, null, null] },
    { address: addresses[0], topics: [topic0.at(-1)] },
    { address: `0x${"00".repeat(20)}` },
  ];
};

beforeAll(async () => {
  // heidi's Emitter: several emitMany txs per block; then a log of just those blocks.
  const bare = await startBareProxy(rpcTestSettings());
  const provider = new JsonRpcProvider(bare.url, 262144, {
    staticNetwork: true,
    pollingInterval: 200,
  });
  emitter = await deployAndEmit(provider, [3, 1, 0, 2, 5, 4]);
  provider.destroy();
  await bare.close();
  window = { from: Math.min(...emitter.heights) - 2, to: Math.max(...emitter.heights) + 2 };
  while (Number.parseInt((await call(NODE_HTTP, "eth_blockNumber")).result, 16) < window.to)
    await new Promise((r) => setTimeout(r, 250));
  const windowLog = mkdtempSync(join(tmpdir(), "rpc-window-log-"));
  const out: string[] = [];
  const code = await runIngester(
    {
      COMET_RPC_URL: e.cometRpc,
      COSMOS_REST_URL: e.rest,
      EVM_RPC_URL: e.evmRpc,
      LOG_DIR: windowLog,
      START_HEIGHT: String(window.from),
      STOP_HEIGHT: String(window.to),
    },
    (l) => out.push(l),
  );
  expect(code, out.join("")).toBe(0);
  // The scenario's blocks and the window, each with and without the node behind the proxy.
  store = await projectedStore([
    { logDir: inject("logDir"), db: "explorer" },
    { logDir: windowLog, db: "window" },
  ]);
  scenarioProxy = await startRpcServer(store, rpcTestSettings());
  scenarioIndexOnly = await startRpcServer(store, rpcTestSettings({ upstreams: [] }));
  windowProxy = await startRpcServer(store, rpcTestSettings(), "window");
  windowIndexOnly = await startRpcServer(store, rpcTestSettings({ upstreams: [] }), "window");
  servers.push(scenarioProxy, scenarioIndexOnly, windowProxy, windowIndexOnly);
}, 600_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await store?.close();
});

describe("eth_getLogs from the index, over the scenario's blocks", () => {
  it("the scenario left logs of many contracts (the comparison has something to compare)", async () => {
    const logs = await nodeLogs(1, scenario.toHeight);
    expect(new Set(logs.map((l) => l.address)).size).toBeGreaterThanOrEqual(5);
  });

  it("every range, unfiltered: the index alone gives the node's answer", async () => {
    const logs = await nodeLogs(1, scenario.toHeight);
    const heights = [...new Set(logs.map((l) => Number.parseInt(l.blockNumber, 16)))];
    for (const [a, b] of rangesOver(1, scenario.toHeight, heights, 1)) {
      const f = { fromBlock: hex(a), toBlock: hex(b) };
      await expectSame([scenarioIndexOnly.url, scenarioProxy.url], f);
    }
  }, 600_000);

  it("every address and topic filter, on several ranges", async () => {
    const logs = await nodeLogs(1, scenario.toHeight);
    const heights = logs.map((l) => Number.parseInt(l.blockNumber, 16));
    const ranges = [
      [1, scenario.toHeight],
      [heights[0]!, heights.at(-1)!],
      [heights[Math.floor(heights.length / 2)]!, scenario.toHeight],
      [1, heights[3]!],
    ];
    for (const filter of filtersFrom(logs))
      for (const [a, b] of ranges) {
        const f = { ...filter, fromBlock: hex(a!), toBlock: hex(b!) };
        await expectSame([scenarioIndexOnly.url, scenarioProxy.url], f);
      }
  }, 600_000);

  it("a block hash: from the index when it holds logs of that block, else from the node", async () => {
    const logs = await nodeLogs(1, scenario.toHeight);
    const hashes = [...new Set(logs.map((l) => l.blockHash))];
    expect(hashes.length).toBeGreaterThan(5);
    for (const blockHash of hashes) {
      await expectSame([scenarioIndexOnly.url, scenarioProxy.url], { blockHash });
      await expectSame([scenarioProxy.url], { blockHash, address: logs[0]!.address });
    }
    const quiet = (await call(NODE_HTTP, "eth_getBlockByNumber", ["0x2", false])).result.hash;
    await expectSame([scenarioProxy.url], { blockHash: quiet });
    expect(
      (await call(scenarioIndexOnly.url, "eth_getLogs", [{ blockHash: quiet }])).result,
    ).toEqual([]);
  });

  it("ranges reaching past the index: the index's part and the node's part, joined", async () => {
    const end = scenario.toHeight;
    for (const f of [
      { fromBlock: hex(end - 20), toBlock: hex(end + 30) },
      { fromBlock: hex(1), toBlock: "latest" },
      { fromBlock: "0x0" },
      { fromBlock: hex(end + 1), toBlock: hex(end + 5) },
      { fromBlock: "earliest", toBlock: hex(40) },
      {},
      { fromBlock: "latest", toBlock: "latest" },
    ]) {
      await expectSame([scenarioProxy.url], f);
      await expectSame([scenarioProxy.url], { ...f, address: emitter.address });
    }
  });

  it("filters the node refuses get the node's own error", async () => {
    for (const f of [
      { fromBlock: "0x1", toBlock: "0x5", topics: [null, null, null, null, null] },
      { address: "0x1234", fromBlock: "0x1", toBlock: "0x2" },
      { fromBlock: "0x01", toBlock: "0x2" },
      { blockHash: `0x${"11".repeat(32)}`, fromBlock: "0x1" },
      { fromBlock: hex(10_000_000), toBlock: hex(10_000_001) },
    ])
      await expectSame([scenarioProxy.url], f);
  });
});

describe("eth_getLogs from the index, over heidi's Emitter blocks", () => {
  it("several of heidi's transactions share a block (log and transaction indexes across txs)", () => {
    expect(new Set(emitter.heights).size).toBeLessThan(emitter.heights.length);
  });

  it("every range and filter gives the node's answer", async () => {
    const logs = await nodeLogs(window.from, window.to);
    expect(logs.some((l) => l.topics.length === 0)).toBe(true);
    expect(logs.some((l) => l.topics.length === 4)).toBe(true);
    const heights = [...new Set(logs.map((l) => Number.parseInt(l.blockNumber, 16)))];
    for (const [a, b] of rangesOver(window.from, window.to, heights, 2)) {
      const f = { fromBlock: hex(a), toBlock: hex(b) };
      await expectSame([windowIndexOnly.url, windowProxy.url], f);
    }
    for (const filter of filtersFrom(logs)) {
      const f = { ...filter, fromBlock: hex(window.from), toBlock: hex(window.to) };
      await expectSame([windowIndexOnly.url, windowProxy.url], f);
    }
  }, 600_000);

  it("ranges starting before the index's first block go to the node", async () => {
    await expectSame([windowProxy.url], {
      fromBlock: hex(window.from - 50),
      toBlock: hex(window.to),
    });
    const alone = await call(windowIndexOnly.url, "eth_getLogs", [
      { fromBlock: hex(window.from - 50), toBlock: hex(window.to) },
    ]);
    expect(alone.error).toEqual({
      code: -32000,
      message: `blocks before ${window.from} are not in the index`,
    });
  });
});

describe("the index's own limits", () => {
  it("too many results or too long a range: the node's wording, the proxy's limits", async () => {
    const limited = await startRpcServer(
      store,
      rpcTestSettings({ upstreams: [], logs: { maxRange: 100, maxResults: 3 } }),
    );
    servers.push(limited);
    expect(
      (
        await call(limited.url, "eth_getLogs", [
          { fromBlock: "0x1", toBlock: hex(scenario.toHeight) },
        ])
      ).error,
    ).toEqual({ code: -32000, message: "maximum [from, to] blocks distance: 100" });
    const logs = await nodeLogs(1, scenario.toHeight);
    const first = Number.parseInt(logs[0]!.blockNumber, 16);
    expect((await nodeLogs(first, first + 100)).length).toBeGreaterThan(3);
    expect(
      (
        await call(limited.url, "eth_getLogs", [
          { fromBlock: hex(first), toBlock: hex(first + 100) },
        ])
      ).error,
    ).toEqual({ code: -32000, message: "query returned more than 3 results" });
    // A block hash has no result limit at the node: all of the block's logs, however many.
    const perBlock = new Map<string, number>();
    for (const l of logs) perBlock.set(l.blockHash, (perBlock.get(l.blockHash) ?? 0) + 1);
    const [busiest, count] = [...perBlock].sort((a, b) => b[1] - a[1])[0]!;
    expect(count).toBeGreaterThan(1);
    // (a limit below the block's count less one: the index reads one more than its limit)
    const none = await startRpcServer(
      store,
      rpcTestSettings({ upstreams: [], logs: { maxRange: 100, maxResults: count - 2 } }),
    );
    servers.push(none);
    expect((await call(none.url, "eth_getLogs", [{ blockHash: busiest }])).result).toEqual(
      (await call(NODE_HTTP, "eth_getLogs", [{ blockHash: busiest }])).result,
    );
  });
});
