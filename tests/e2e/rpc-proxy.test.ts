import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { keyFromMnemonic } from "@explorer/chain";
import { testAccounts } from "@explorer/infra";
import { rpcMetrics, SPEC_METHODS } from "@explorer/rpc-proxy";
import Ajv2019 from "ajv/dist/2019.js";
import { Effect } from "effect";
import { PrometheusMetrics } from "effect/observability";
import { Contract, JsonRpcProvider, Wallet } from "ethers";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseAbi,
  parseAbiItem,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { heidiKey } from "../lib/emitter.ts";
import {
  call,
  NODE_HTTP,
  OPERATOR_TOKEN,
  post,
  projectedStore,
  type RpcServer,
  rpcTestSettings,
  startBareProxy,
  startRpcServer,
} from "../lib/rpc-fixture.ts";
import { SteadyWallet } from "../lib/wallet.ts";

/**
 * Issue 8: the JSON-RPC proxy in front of the reference node, with ethers and viem as clients;
 * every row of the SPEC's availability table; JSON-RPC edge cases answered as the node (geth's
 * server) answers them; rate limits; the cache of answers that cannot change; metrics; OpenRPC
 * conformance; and the proxy without a node (embedded mode), answering from the index.
 */
const scenario = inject("scenario");
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos").evm;
const token = scenario.contracts.TestToken!;
let store: Awaited<ReturnType<typeof projectedStore>>;
let proxy: RpcServer;
let indexOnly: RpcServer;
const others: { close(): Promise<void> }[] = [];
const node = new JsonRpcProvider(NODE_HTTP, 262144, { staticNetwork: true });
let viaProxy: JsonRpcProvider;

const chain = defineChain({
  id: 262144,
  name: "evmd-local",
  nativeCurrency: { name: "test", symbol: "TEST", decimals: 18 },
  rpcUrls: { default: { http: [NODE_HTTP] } },
});

beforeAll(async () => {
  store = await projectedStore([{ logDir: inject("logDir"), db: "explorer" }]);
  proxy = await startRpcServer(store, rpcTestSettings());
  indexOnly = await startRpcServer(store, rpcTestSettings({ upstreams: [] }));
  viaProxy = new JsonRpcProvider(proxy.url, 262144, { staticNetwork: true, pollingInterval: 250 });
}, 300_000);

afterAll(async () => {
  viaProxy?.destroy();
  node.destroy();
  for (const s of [...others, proxy, indexOnly]) await s?.close();
  await store?.close();
});

const chainId = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId","params":[]}`;

/** A block both answer the same for (a little behind the head). */
const settled = async () => (await node.getBlockNumber()) - 2;

describe("ethers through the proxy", () => {
  it("balances and calls are the node's, at the same block", async () => {
    const at = await settled();
    expect(await viaProxy.getBalance(alice, at)).toBe(await node.getBalance(alice, at));
    const abi = [
      "function balanceOf(address) view returns (uint256)",
      "function name() view returns (string)",
    ];
    const mine = new Contract(token, abi, viaProxy);
    const theirs = new Contract(token, abi, node);
    expect(await mine.getFunction("balanceOf")(alice, { blockTag: at })).toBe(
      await theirs.getFunction("balanceOf")(alice, { blockTag: at }),
    );
    expect(await mine.getFunction("name")()).toBe(await theirs.getFunction("name")());
  });

  it("a raw transaction sent through the proxy lands, and its receipt is the node's", async () => {
    const wallet = new SteadyWallet(heidiKey().privateKey, viaProxy);
    const tx = await wallet.sendTransaction({ to: Wallet.createRandom().address, value: 12345n });
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    const direct = await node.getTransactionReceipt(tx.hash);
    expect(direct?.blockHash).toBe(receipt?.blockHash);
    expect((await viaProxy.getTransaction(tx.hash))?.blockNumber).toBe(receipt?.blockNumber);
  });

  it("event queries (eth_getLogs) give the node's logs", async () => {
    const abi = ["event Transfer(address indexed from, address indexed to, uint256 value)"];
    const mine = await new Contract(token, abi, viaProxy).queryFilter(
      "Transfer",
      1,
      scenario.toHeight,
    );
    const theirs = await new Contract(token, abi, node).queryFilter(
      "Transfer",
      1,
      scenario.toHeight,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map((l) => [l.transactionHash, l.index, l.data])).toEqual(
      theirs.map((l) => [l.transactionHash, l.index, l.data]),
    );
  });
});

describe("viem through the proxy", () => {
  const client = () => createPublicClient({ chain, transport: http(proxy.url) });

  it("chain id, balances and contract reads are the node's", async () => {
    const c = client();
    const direct = createPublicClient({ chain, transport: http(NODE_HTTP) });
    const blockNumber = BigInt(await settled());
    expect(await c.getChainId()).toBe(262144);
    expect(await c.getBalance({ address: alice as Hex, blockNumber })).toBe(
      await direct.getBalance({ address: alice as Hex, blockNumber }),
    );
    const abi = parseAbi(["function balanceOf(address) view returns (uint256)"]);
    const read = (x: typeof c) =>
      x.readContract({
        address: token as Hex,
        abi,
        functionName: "balanceOf",
        args: [alice as Hex],
        blockNumber,
      });
    expect(await read(c)).toBe(await read(direct));
  });

  it("sends a raw transaction and waits for its receipt", async () => {
    const account = privateKeyToAccount(heidiKey().privateKey as Hex);
    const wallet = createWalletClient({ account, chain, transport: http(proxy.url) });
    const hash = await wallet.sendTransaction({
      to: "0x000000000000000000000000000000000000dEaD",
      value: 1n,
    });
    const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 250 });
    expect(receipt.status).toBe("success");
    expect(receipt.transactionHash).toBe(hash);
  });

  it("getLogs with an event gives the node's logs", async () => {
    const args = {
      address: token as Hex,
      event: parseAbiItem(
        "event Transfer(address indexed from, address indexed to, uint256 value)",
      ),
      fromBlock: 1n,
      toBlock: BigInt(scenario.toHeight),
    };
    const mine = await client().getLogs(args);
    const theirs = await createPublicClient({ chain, transport: http(NODE_HTTP) }).getLogs(args);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).toEqual(theirs);
  });
});

/**
 * The node's answer to the same call, for a method the proxy forwards: asked of the node just
 * before and just after the proxy, the proxy's answer must equal one of them (a block may be
 * committed in between: the height, the gas price and the pool move), or lie between them for
 * a quantity. Tried three times before it counts as a difference.
 */
const asNode = async (method: string, params: unknown[], headers: Record<string, string> = {}) => {
  const quantity = (v: unknown) =>
    typeof v === "string" && /^0x[0-9a-f]+$/i.test(v) ? BigInt(v) : undefined;
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  // A new filter's id differs by nature (the proxy's also names the node): an id, as the node's.
  if (/^eth_new\w*Filter$/.test(method)) {
    const [mine, theirs] = [
      await call(proxy.url, method, params, headers),
      await call(NODE_HTTP, method, params),
    ];
    if (theirs.error) expect(mine.error, method).toEqual(theirs.error);
    else
      expect([mine.result, theirs.result], method).toEqual([
        expect.stringMatching(/^0x[0-9a-f]+$/),
        expect.stringMatching(/^0x[0-9a-f]+$/),
      ]);
    return;
  }
  let last: unknown[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await call(NODE_HTTP, method, params);
    const mine = await call(proxy.url, method, params, headers);
    const after = await call(NODE_HTTP, method, params);
    if (before.error || after.error) {
      if (same(mine.error, before.error) || same(mine.error, after.error)) return;
    } else {
      const [b, m, a] = [before.result, mine.result, after.result].map(quantity);
      if (same(mine.result, before.result) || same(mine.result, after.result)) return;
      if (b !== undefined && m !== undefined && a !== undefined && b <= m && m <= a) return;
    }
    last = [before, mine, after];
  }
  expect(last[1], `${method}: the proxy's answer, between the node's before and after`).toEqual(
    last[0],
  );
};

describe("the SPEC's availability table, row by row", () => {
  const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };

  it("public rows are forwarded: the node's own answer", async () => {
    // Reads with real arguments, so that answers (not only "missing value" errors) are compared
    // (the last EVM transaction: the cache tests below ask for the first one).
    const hash = scenario.sent.findLast(
      (s) => s.hash.startsWith("0x") && s.expect === "success",
    )!.hash;
    const receipt = (await call(NODE_HTTP, "eth_getTransactionReceipt", [hash])).result;
    const at = `0x${(await settled()).toString(16)}`;
    const read = { to: token, data: "0x06fdde03" }; // name()
    const withArgs: Record<string, unknown[]> = {
      web3_sha3: ["0x68656c6c6f"],
      eth_getBalance: [alice, at],
      eth_getStorageAt: [token, "0x0", at],
      eth_getTransactionCount: [alice, at],
      eth_getBlockTransactionCountByNumber: [receipt.blockNumber],
      eth_getBlockTransactionCountByHash: [receipt.blockHash],
      eth_getCode: [token, at],
      eth_call: [read, at],
      eth_estimateGas: [{ ...read, from: alice }],
      eth_getBlockByNumber: [at, false],
      eth_getBlockByHash: [receipt.blockHash, true],
      eth_getTransactionByHash: [hash],
      eth_getTransactionByBlockHashAndIndex: [receipt.blockHash, receipt.transactionIndex],
      eth_getTransactionReceipt: [hash],
      eth_getLogs: [{ fromBlock: receipt.blockNumber, toBlock: receipt.blockNumber }],
      eth_getProof: [alice, [], at],
      eth_newFilter: [{ fromBlock: at }],
    };
    let answered = 0;
    for (const [method, mark] of SPEC_METHODS) {
      const isPublic =
        mark === "public" || (mark === "implemented" && !method.startsWith("debug_"));
      if (!isPublic || method === "eth_getTransactionbyBlockNumberAndIndex") continue;
      const params = withArgs[method];
      if (params) {
        expect((await call(proxy.url, method, params)).error, method).toBeUndefined();
        answered++;
      }
      // Without arguments where they would send, sign or need a filter: the node's error.
      await asNode(method, params ?? []);
    }
    expect(answered).toBe(Object.keys(withArgs).length);
  });

  it("private rows (personal_, miner_, debug_) are refused without the operator's token, with HTTP 401", async () => {
    for (const [method, mark] of SPEC_METHODS) {
      const isPrivate =
        mark === "private" || (mark === "implemented" && method.startsWith("debug_"));
      if (!isPrivate) continue;
      const r = await post(
        proxy.url,
        JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: [] }),
      );
      expect(r.status, method).toBe(401);
      expect(JSON.parse(r.text), method).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32010,
          message: `${method} is a private method: send the operator's token as "Authorization: Bearer <token>"`,
        },
      });
    }
  });

  it("a private method spelled in another case beside a public one is not what the node runs", async () => {
    // Go reads an object's keys without regard to case, the last match winning: the node alone
    // would run `Method`, and does (it lists its accounts). Through the proxy it must run the
    // method the proxy checked, whatever else the object holds.
    const smuggled = (decoy: string, key: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"${decoy}","${key}":"personal_listAccounts","params":[]}`;
    const direct = JSON.parse((await post(NODE_HTTP, smuggled("eth_chainId", "Method"))).text);
    expect(direct.result).toEqual((await call(NODE_HTTP, "personal_listAccounts")).result);
    for (const decoy of ["eth_chainId", "eth_blockNumber", "net_version", "eth_gasPrice"])
      for (const key of ["Method", "METHOD", "meThod"]) {
        const r = await post(proxy.url, smuggled(decoy, key));
        const answer = JSON.parse(r.text);
        expect(Array.isArray(answer.result), `${decoy} ${key}`).toBe(false);
        expect(answer.result, `${decoy} ${key}`).toMatch(/^(0x[0-9a-f]+|\d+)$/);
      }
  });

  it("private rows are forwarded with the operator's token", async () => {
    for (const [method, mark] of SPEC_METHODS) {
      const isPrivate =
        mark === "private" || (mark === "implemented" && method.startsWith("debug_"));
      if (isPrivate) await asNode(method, [], auth);
    }
    const accounts = await call(proxy.url, "personal_listAccounts", [], auth);
    expect(accounts.result).toEqual((await call(NODE_HTTP, "personal_listAccounts")).result);
    const created = await call(proxy.url, "personal_newAccount", ["a passphrase"], auth);
    expect(created.result).toMatch(/^0x[0-9a-f]{40}$/);
    const after = await call(NODE_HTTP, "personal_listAccounts");
    expect(after.result).toContain(created.result);
  });

  it("not implemented and not applicable rows are answered -32601 here, even where the node would answer", async () => {
    for (const [method, mark] of SPEC_METHODS) {
      if (mark !== "not-implemented" && mark !== "not-applicable") continue;
      const r = await call(proxy.url, method, [], { authorization: `Bearer ${OPERATOR_TOKEN}` });
      expect(r.error, method).toEqual({
        code: -32601,
        message: `the method ${method} does not exist/is not available (${mark === "not-applicable" ? "not applicable: proof-of-work only" : "not implemented"})`,
      });
    }
    // the node itself answers these two: the proxy never asked it
    expect((await call(NODE_HTTP, "eth_hashrate")).result).toBe("0x0");
    expect((await call(NODE_HTTP, "eth_getUncleCountByBlockNumber", ["0x1"])).result).toBe("0x0");
  });

  it("namespaces the SPEC lists as not implemented, and unknown ones, are refused here", async () => {
    for (const method of [
      "admin_peers",
      "db_getString",
      "shh_version",
      "clique_getSigners",
      "les_serverInfo",
      "rpc_modules",
      "foo",
    ]) {
      const r = await call(proxy.url, method, []);
      expect(r.error?.code, method).toBe(-32601);
    }
  });

  it("the SPEC's spelling eth_getTransactionbyBlockNumberAndIndex is the node's eth_getTransactionByBlockNumberAndIndex", async () => {
    const evmTx = scenario.sent.find((s) => s.hash.startsWith("0x") && s.expect === "success")!;
    const params = [`0x${evmTx.height.toString(16)}`, "0x0"];
    const mine = await call(proxy.url, "eth_getTransactionbyBlockNumberAndIndex", params);
    const theirs = await call(NODE_HTTP, "eth_getTransactionByBlockNumberAndIndex", params);
    expect(mine.result).toEqual(theirs.result);
    expect(mine.result.blockNumber).toBe(params[0]);
  });

  it("the operator overrides the table", async () => {
    const custom = await startBareProxy(
      rpcTestSettings({
        policy: {
          methods: { eth_gasPrice: "unavailable", web3_clientVersion: "private" },
          namespaces: { debug: "public" },
        },
      }),
    );
    others.push(custom);
    expect((await call(custom.url, "eth_gasPrice")).error?.code).toBe(-32601);
    expect((await call(custom.url, "web3_clientVersion")).error?.code).toBe(-32010);
    const transfer = scenario.sent.find((s) => s.label === "evm legacy value transfer")!.hash;
    const trace = await call(custom.url, "debug_traceTransaction", [
      transfer,
      { tracer: "callTracer" },
    ]);
    expect(trace.result).toMatchObject({ type: "CALL" });
    expect((await call(custom.url, "eth_chainId")).result).toBe("0x40000");
  });
});

describe("JSON-RPC edge cases, answered as the node answers them", () => {
  const cases: [string, string][] = [
    ["empty batch", "[]"],
    ["notification inside a batch", `[{"jsonrpc":"2.0","method":"eth_chainId"},${chainId("7")}]`],
    [
      "all-notification batch",
      '[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"net_version"}]',
    ],
    ["single notification", '{"jsonrpc":"2.0","method":"eth_chainId"}'],
    ["number id", chainId("42")],
    ["string id", chainId('"a-string"')],
    ["null id", chainId("null")],
    ["boolean id", chainId("true")],
    ["fractional id", chainId("1.50")],
    ["30-digit id", chainId("123456789012345678901234567890")],
    ["parse error", '{"jsonrpc":"2.0","id":1,"method":'],
    ["no method", '{"jsonrpc":"2.0","id":1}'],
    ["object id", '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}'],
    ["wrong version", '{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}'],
    ["no version", '{"id":1,"method":"eth_chainId"}'],
    ["a string", '"hello"'],
    ["batch of non-objects", '[1,"x",null]'],
    ["method not a string", '{"jsonrpc":"2.0","id":1,"method":5}'],
    ["response sent as a request", `[{"jsonrpc":"2.0","id":1,"result":"0x1"},${chainId("2")}]`],
    [
      "mixed batch",
      `[${chainId("1")},{"jsonrpc":"2.0","id":2},{"jsonrpc":"2.0","method":"eth_chainId"},${chainId('"x"')}]`,
    ],
    [
      "-32602 from the node",
      '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xzz","latest"]}',
    ],
    ["params not an array", '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":{"a":1}}'],
    ["unknown eth_ method", '{"jsonrpc":"2.0","id":1,"method":"eth_noSuchMethod","params":[]}'],
    [
      "eth_subscribe over HTTP",
      '{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}',
    ],
    [
      "batch over the size limit (1001)",
      `[${Array.from({ length: 1001 }, (_, i) => chainId(String(i))).join(",")}]`,
    ],
    [
      // at the limit; mostly invalid messages, which the node answers without running anything
      "batch at the size limit (1000)",
      `[${Array.from({ length: 1000 }, (_, i) => (i % 100 ? `{"jsonrpc":"2.0","id":${i}}` : chainId(String(i)))).join(",")}]`,
    ],
  ];

  it.each(cases)("%s", async (_, body) => {
    const [mine, theirs] = await Promise.all([post(proxy.url, body), post(NODE_HTTP, body)]);
    expect(mine.status).toBe(theirs.status);
    expect(mine.text).toBe(theirs.text);
  });

  it("a notification goes as its call would: eth_uninstallFilter reaches the filter's node with its id", async () => {
    const id = (await call(proxy.url, "eth_newBlockFilter")).result as string;
    expect((await call(proxy.url, "eth_getFilterChanges", [id])).error).toBeUndefined();
    const sent = await post(
      proxy.url,
      JSON.stringify({ jsonrpc: "2.0", method: "eth_uninstallFilter", params: [id] }),
    );
    expect([sent.status, sent.text]).toEqual([200, ""]);
    expect((await call(proxy.url, "eth_getFilterChanges", [id])).error?.message).toMatch(
      /^filter 0x[0-9a-f]+ not found$/,
    );
  });

  it("a batch the node refuses as too large (ids rebuilt past its 5 MiB) fails alone: the node stays up", async () => {
    const balance = (pad: string) =>
      `{"jsonrpc":"2.0","id":0,"method":"eth_getBalance","params":["0x${pad}","latest"]}`;
    const bare = `[${Array.from({ length: 1000 }, () => balance("")).join(",")}]`.length;
    const pad = "a".repeat(Math.floor((5 * 1024 * 1024 - bare - 10) / 1000));
    const body = `[${Array.from({ length: 1000 }, () => balance(pad)).join(",")}]`;
    expect(body.length).toBeLessThanOrEqual(5 * 1024 * 1024); // within the proxy's own limit
    const answers = JSON.parse((await post(proxy.url, body)).text) as { error?: unknown }[];
    expect(answers).toHaveLength(1000);
    expect(answers.every((a) => a.error)).toBe(true);
    expect(proxy.pool.upstreams.map((u) => u.up)).toEqual([true]);
    expect((await call(proxy.url, "eth_chainId")).result).toBe("0x40000");
  });

  it("a form-encoded body gets the node's content-type complaint (HTTP 415)", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const [mine, theirs] = await Promise.all([
      post(proxy.url, "a=1", form),
      post(NODE_HTTP, "a=1", form),
    ]);
    expect(mine.status).toBe(415);
    expect(mine.text).toBe(theirs.text);
    expect((await post(proxy.url, chainId("1"), { "content-type": "text/plain" })).status).toBe(
      415,
    );
    expect((await post(proxy.url, chainId("1"), {})).status).toBe(415);
    const utf8 = await post(proxy.url, chainId("1"), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(JSON.parse(utf8.text).result).toBe("0x40000");
  });

  it("a body over the size limit gets HTTP 413, as from the node", async () => {
    const big = `[${chainId("1")},"${"x".repeat(6 * 1024 * 1024)}"]`;
    const [mine, theirs] = await Promise.all([post(proxy.url, big), post(NODE_HTTP, big)]);
    expect(mine.status).toBe(413);
    expect(mine.text).toBe(theirs.text);
  });

  it("only POST carries JSON-RPC; OPTIONS answers CORS", async () => {
    expect((await fetch(proxy.url)).status).toBe(405);
    const options = await fetch(proxy.url, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});

describe("rate limits, per API key and per IP", () => {
  it("over a key's limit: HTTP 429, a -32005 error per call, Retry-After", async () => {
    const limited = await startBareProxy(rpcTestSettings({ apiKeys: new Map([["k-slow", 3]]) }));
    others.push(limited);
    const key = { authorization: "Bearer k-slow" };
    for (let i = 0; i < 3; i++)
      expect((await call(limited.url, "eth_chainId", [], key)).result).toBe("0x40000");
    const refused = await post(limited.url, '{"jsonrpc":"2.0","id":9,"method":"eth_chainId"}', {
      "content-type": "application/json",
      ...key,
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // a page on another origin may read it
    expect(refused.headers.get("access-control-expose-headers")?.split(", ")).toEqual(
      expect.arrayContaining(["retry-after", "x-ratelimit-limit", "x-ratelimit-remaining"]),
    );
    expect(JSON.parse(refused.text)).toMatchObject({ id: 9, error: { code: -32005 } });
    // the key's limit is its own: the same IP without the key still passes
    expect((await call(limited.url, "eth_chainId")).result).toBe("0x40000");
  });

  it("over the per-IP limit, a batch costs one per message; the operator's token is not limited", async () => {
    const limited = await startBareProxy(rpcTestSettings({ rateLimitPerMinute: 4 }));
    others.push(limited);
    const batch = `[${[1, 2, 3].map((i) => `{"jsonrpc":"2.0","id":${i},"method":"eth_chainId"}`).join(",")}]`;
    expect((await post(limited.url, batch)).status).toBe(200);
    const refused = await post(limited.url, batch);
    expect(refused.status).toBe(429);
    expect(
      (JSON.parse(refused.text) as { id: number; error: { code: number } }[]).map((r) => [
        r.id,
        r.error.code,
      ]),
    ).toEqual([
      [1, -32005],
      [2, -32005],
      [3, -32005],
    ]);
    for (let i = 0; i < 5; i++)
      expect(
        (await call(limited.url, "eth_chainId", [], { authorization: `Bearer ${OPERATOR_TOKEN}` }))
          .result,
      ).toBe("0x40000");
  });

  it("a batch larger than the limit is told to split, not to retry; one over the batch limit costs one call", async () => {
    const limited = await startBareProxy(rpcTestSettings({ rateLimitPerMinute: 4, batchLimit: 6 }));
    others.push(limited);
    const batchOf = (n: number) =>
      `[${Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"eth_chainId"}`).join(",")}]`;
    // 5 calls can never fit a bucket of 4: no Retry-After, and the bucket is left as it was
    const tooLarge = await post(limited.url, batchOf(5));
    expect(tooLarge.status).toBe(429);
    expect(tooLarge.headers.get("retry-after")).toBeNull();
    const errors = JSON.parse(tooLarge.text) as {
      id: number;
      error: { code: number; message: string };
    }[];
    expect(errors.map((e) => [e.id, e.error.code])).toEqual(
      [1, 2, 3, 4, 5].map((id) => [id, -32005]),
    );
    expect(errors[0]!.error.message).toMatch(/send batches of at most 4 calls/);
    // over the batch limit: the proxy's "batch too large", for one call's worth of the bucket
    const overBatchLimit = await post(limited.url, batchOf(7));
    expect(overBatchLimit.status).toBe(200);
    expect(JSON.parse(overBatchLimit.text)).toMatchObject([
      { id: 1, error: { code: -32600, message: "batch too large" } },
    ]);
    const three = await post(limited.url, batchOf(3));
    expect(three.status).toBe(200);
    expect((JSON.parse(three.text) as { result: string }[]).map((r) => r.result)).toEqual([
      "0x40000",
      "0x40000",
      "0x40000",
    ]);
    expect((await post(limited.url, batchOf(1))).status).toBe(429);
  });

  it("an unknown bearer token is refused (401)", async () => {
    const r = await post(proxy.url, chainId("1"), {
      "content-type": "application/json",
      authorization: "Bearer nope",
    });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.text).error.code).toBe(-32010);
  });
});

describe("cheap reads of concurrent clients share upstream requests", () => {
  it("each client gets its own answer, with fewer requests to the node than calls", async () => {
    // a proxy of its own: sharing stops while the node is slow, which earlier calls may have seen
    const fresh = await startBareProxy(rpcTestSettings());
    others.push(fresh);
    const upstream = fresh.pool.upstreams[0]!;
    const before = upstream.requests;
    const at = `0x${(await settled()).toString(16)}`;
    const expected = (await call(NODE_HTTP, "eth_getBalance", [alice, at])).result;
    // 24 clients on open connections send their call at the same moment (raw HTTP/1.1)
    const { port, pathname } = new URL(fresh.url);
    const sockets = await Promise.all(
      Array.from(
        { length: 24 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(Number(port), "127.0.0.1", () => resolve(s));
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 200)); // the server has accepted them all
    const answers = await Promise.all(
      sockets.map((socket, i) => {
        const body =
          i % 2
            ? `{"jsonrpc":"2.0","id":"c${i}","method":"eth_getBalance","params":["${alice}","${at}"]}`
            : chainId(String(i));
        socket.write(
          `POST ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
        return new Promise<{ i: number; answer: unknown }>((resolve) => {
          let raw = "";
          socket.on("data", (d) => {
            raw += d.toString();
          });
          socket.on("end", () =>
            resolve({ i, answer: JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) }),
          );
        });
      }),
    );
    for (const { i, answer } of answers)
      expect(answer).toEqual({
        jsonrpc: "2.0",
        id: i % 2 ? `c${i}` : i,
        result: i % 2 ? expected : "0x40000",
      });
    expect(upstream.requests - before).toBeLessThan(answers.length);
  });
});

describe("answers that cannot change are kept", () => {
  it("a receipt asked twice is served once by the node; a moving answer never is", async () => {
    const hash = scenario.sent.find((s) => s.hash.startsWith("0x") && s.expect === "success")!.hash;
    const before = rpcMetrics.cacheHits;
    const first = await call(proxy.url, "eth_getTransactionReceipt", [hash]);
    const second = await call(proxy.url, "eth_getTransactionReceipt", [hash]);
    expect(second).toEqual(first);
    expect(first.result).toEqual(
      (await call(NODE_HTTP, "eth_getTransactionReceipt", [hash])).result,
    );
    expect(rpcMetrics.cacheHits).toBe(before + 1);
    await call(proxy.url, "eth_getBlockByNumber", ["latest", false]);
    await call(proxy.url, "eth_getBlockByNumber", ["latest", false]);
    expect(rpcMetrics.cacheHits).toBe(before + 1);
  });

  it("params in another case (which the node would read instead) cannot plant an answer for others", async () => {
    const at = await settled();
    const [a, b] = [`0x${(at - 1).toString(16)}`, `0x${at.toString(16)}`];
    const planted = `{"jsonrpc":"2.0","id":"x","method":"eth_getBlockByNumber","params":["${a}",false],"Params":["${b}",false]}`;
    const first = JSON.parse((await post(proxy.url, planted)).text);
    expect(first.result.number).toBe(a);
    const after = await call(proxy.url, "eth_getBlockByNumber", [a, false]);
    expect(after.result).toEqual(
      (await call(NODE_HTTP, "eth_getBlockByNumber", [a, false])).result,
    );
  });

  it("a receipt not yet there is null (as geth answers), and not kept", async () => {
    const unknown = `0x${"12".repeat(32)}`;
    const hits = rpcMetrics.cacheHits;
    for (let i = 0; i < 2; i++)
      expect((await call(proxy.url, "eth_getTransactionReceipt", [unknown])).result).toBeNull();
    expect(rpcMetrics.cacheHits).toBe(hits); // asked of the node again: it may come
    expect((await call(NODE_HTTP, "eth_getTransactionReceipt", [unknown])).error?.message).toMatch(
      /ethereum tx not found/,
    );
  });

  it("eth_getBlockReceipts of a block not there is null (as geth answers), a block there its receipts", async () => {
    const unknown = `0x${"34".repeat(32)}`;
    const beyond = `0x${(Number((await call(NODE_HTTP, "eth_blockNumber")).result) + 1000).toString(16)}`;
    for (const p of [unknown, { blockHash: unknown }, beyond]) {
      const node = await call(NODE_HTTP, "eth_getBlockReceipts", [p]);
      expect(node.error?.message, JSON.stringify(p)).toMatch(
        /method handler crashed|must be less than or equal to the current blockchain height/,
      );
      const answer = await call(proxy.url, "eth_getBlockReceipts", [p]);
      expect(answer.error, JSON.stringify(p)).toBeUndefined();
      expect(answer.result, JSON.stringify(p)).toBeNull();
    }
    const at = `0x${(await settled()).toString(16)}`;
    const hash = (await call(NODE_HTTP, "eth_getBlockByNumber", [at, false])).result.hash;
    expect((await call(proxy.url, "eth_getBlockReceipts", [hash])).result).toEqual(
      (await call(NODE_HTTP, "eth_getBlockReceipts", [at])).result,
    );
  });
});

describe("metrics per method", () => {
  it("counts requests, errors and latency per method, in the Prometheus text", async () => {
    const before = rpcMetrics.count("eth_chainId");
    const errorsBefore = rpcMetrics.count("eth_getBalance").errors;
    await call(proxy.url, "eth_chainId");
    await call(proxy.url, "eth_chainId");
    await call(proxy.url, "eth_getBalance", ["0xzz", "latest"]);
    expect(rpcMetrics.count("eth_chainId").requests).toBe(before.requests + 2);
    expect(rpcMetrics.count("eth_getBalance").errors).toBe(errorsBefore + 1);
    await call(proxy.url, "eth_madeUpName123");
    const text = Effect.runSync(PrometheusMetrics.format({ prefix: "explorer" }));
    expect(text).toMatch(/explorer_rpc_requests_total\{method="eth_chainId"\} \d+/);
    expect(text).toMatch(/explorer_rpc_errors_total\{method="eth_getBalance"\} [1-9]/);
    expect(text).toMatch(
      /explorer_rpc_request_duration_seconds_bucket\{method="eth_chainId",le="0\.005"\}/,
    );
    expect(text).toMatch(
      new RegExp(`explorer_rpc_upstream_up\\{[^}]*upstream="${NODE_HTTP}"[^}]*\\} 1`),
    );
    // whatever clients send, labels stay bounded
    expect(text).not.toContain("eth_madeUpName123");
    expect(text).toContain('explorer_rpc_requests_total{method="other"}');
  });
});

describe("answers conform to the Ethereum JSON-RPC specification (OpenRPC)", () => {
  const spec = JSON.parse(
    readFileSync("/work/shared/conformance/execution-apis-openrpc.json", "utf8"),
  ) as { methods: { name: string; result: { schema: object } }[] };
  const ajv = new Ajv2019.default({ strict: false });
  const conform = (method: string, result: unknown) => {
    const validate = ajv.compile(spec.methods.find((m) => m.name === method)!.result.schema);
    expect(validate(result), `${method}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };

  it("reads through the proxy, and what the index answers itself", async () => {
    const hash = scenario.sent.find((s) => s.hash.startsWith("0x") && s.expect === "success")!.hash;
    const at = `0x${(await settled()).toString(16)}`;
    for (const [method, params] of [
      ["eth_blockNumber", []],
      ["eth_chainId", []],
      ["eth_gasPrice", []],
      ["eth_syncing", []],
      ["eth_getBalance", [alice, at]],
      ["eth_getCode", [token, at]],
      ["eth_call", [{ to: token, data: "0x06fdde03" }, at]],
      ["eth_getBlockByNumber", [at, false]],
      ["eth_getTransactionReceipt", [hash]],
      ["eth_feeHistory", ["0x3", at, [10, 50]]],
      ["eth_getLogs", [{ fromBlock: "0x1", toBlock: `0x${scenario.toHeight.toString(16)}` }]],
      // filter ids are the proxy's own (they name the node): quantities, no leading zero
      ["eth_newBlockFilter", []],
      ["eth_newFilter", [{ fromBlock: at, address: token }]],
      ["eth_newPendingTransactionFilter", []],
    ] as [string, unknown[]][]) {
      const r = await call(proxy.url, method, params);
      expect(r.error, method).toBeUndefined();
      conform(method, r.result);
      if (method.startsWith("eth_new")) {
        const changes = await call(proxy.url, "eth_getFilterChanges", [r.result]);
        expect(changes.error, `${method} then eth_getFilterChanges`).toBeUndefined();
        // the schema is a oneOf of hashes and logs, which an empty array matches both of
        if ((changes.result as unknown[]).length > 0)
          conform("eth_getFilterChanges", changes.result);
        else expect(changes.result).toEqual([]);
        expect((await call(proxy.url, "eth_uninstallFilter", [r.result])).result).toBe(true);
      }
    }
    for (const method of ["eth_blockNumber", "eth_chainId"])
      conform(method, (await call(indexOnly.url, method)).result);
    conform(
      "eth_getLogs",
      (await call(indexOnly.url, "eth_getLogs", [{ fromBlock: "0x1", toBlock: "latest" }])).result,
    );
  });
});

describe("without a node (embedded mode): what the index can answer", () => {
  it("eth_blockNumber is the projected height; eth_chainId and net_version come from configuration", async () => {
    expect((await call(indexOnly.url, "eth_blockNumber")).result).toBe(
      `0x${scenario.toHeight.toString(16)}`,
    );
    expect((await call(indexOnly.url, "eth_chainId")).result).toBe("0x40000");
    expect((await call(indexOnly.url, "net_version")).result).toBe("262144");
  });

  it("eth_getLogs up to latest is the index's", async () => {
    const r = await call(indexOnly.url, "eth_getLogs", [
      { fromBlock: "0x1", toBlock: "latest", address: token },
    ]);
    const n = await call(NODE_HTTP, "eth_getLogs", [
      { fromBlock: "0x1", toBlock: `0x${scenario.toHeight.toString(16)}`, address: token },
    ]);
    expect(r.result.length).toBeGreaterThan(0);
    expect(r.result).toEqual(n.result);
  });

  it("the rest is refused with a clear error, in batches too", async () => {
    const r = await call(indexOnly.url, "eth_getBalance", [alice, "latest"]);
    expect(r.error).toEqual({
      code: -32011,
      message:
        "eth_getBalance needs a node and none is configured behind this endpoint; it answers eth_getLogs, eth_blockNumber, eth_chainId and net_version from the index",
    });
    const batch = await post(
      indexOnly.url,
      '[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[]}]',
    );
    const [a, b] = JSON.parse(batch.text) as {
      id: number;
      result?: string;
      error?: { code: number };
    }[];
    expect(a).toMatchObject({ id: 1, result: `0x${scenario.toHeight.toString(16)}` });
    expect(b).toMatchObject({ id: 2, error: { code: -32011 } });
    expect((await call(indexOnly.url, "personal_listAccounts")).error?.code).toBe(-32010);
  });
});
