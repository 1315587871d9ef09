import { toBech32 } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { parseUpstreams } from "@explorer/rpc-proxy";
import { EtherscanProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cometReader } from "../lib/api-node.ts";
import { txsNaming } from "../lib/comet.ts";
import {
  NODE_HTTP,
  projectedStore,
  type RpcServer,
  rpcTestSettings,
  startRpcServer,
} from "../lib/rpc-fixture.ts";

/**
 * Issue 47: the Etherscan-style API (`/api`, `/v2/api`) against the reference node, for every
 * account the scenario's EVM transactions touched: txlist is the node's EVM transactions, balances
 * are eth_getBalance, token transfers the node's Transfer logs, getLogs eth_getLogs, statuses the
 * receipts, getblocknobytime the node's blocks. And ethers' EtherscanProvider as a real client.
 */
const scenario = inject("scenario");
const TO = scenario.toHeight;
const { cometRpc } = endpoints(nodePorts(0));
const comet = cometReader(cometRpc);
let server: RpcServer;
let store: Awaited<ReturnType<typeof projectedStore>>;
let base: string;

type Obj = Record<string, any>;
const node = async (method: string, params: unknown[]) => {
  const r = await fetch(NODE_HTTP, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const j = (await r.json()) as Obj;
  if (j.error) throw new Error(JSON.stringify(j.error));
  return j.result;
};
const hex = (n: number) => `0x${n.toString(16)}`;
const es = async (params: Record<string, string>, path = "/api") => {
  const r = await fetch(`${base}${path}?${new URLSearchParams(params)}`);
  expect(r.status).toBe(200);
  return (await r.json()) as { status: string; message: string; result: any };
};

/** The node's EVM transactions of blocks 1…TO, with receipts and block times. */
const txs: { tx: Obj; receipt: Obj; time: number }[] = [];
const blocks: { height: number; time: number }[] = [];
const touched = new Set<string>();

beforeAll(async () => {
  store = await projectedStore([{ logDir: inject("logDir"), db: "explorer" }]);
  server = await startRpcServer(store, rpcTestSettings());
  base = server.url.replace(/\/rpc$/, "");
  for (let h = 1; h <= TO; h++) {
    const b = (await node("eth_getBlockByNumber", [hex(h), true])) as Obj;
    const time = Number(BigInt(b.timestamp));
    blocks.push({ height: h, time });
    for (const tx of b.transactions as Obj[]) {
      const receipt = (await node("eth_getTransactionReceipt", [tx.hash])) as Obj;
      txs.push({ tx, receipt, time });
      for (const a of [tx.from, tx.to, receipt.contractAddress])
        if (a) touched.add(a.toLowerCase());
    }
  }
}, 600_000);

afterAll(async () => {
  await server?.close();
});

describe("Etherscan-style API", () => {
  it("txlist lists each touched account's EVM transactions as the node's blocks hold them", async () => {
    expect(touched.size).toBeGreaterThan(3);
    for (const a of touched) {
      const mine = await es({
        module: "account",
        action: "txlist",
        address: a,
        endblock: String(TO),
        offset: "1000",
      });
      const expected = txs.filter(
        ({ tx, receipt }) =>
          tx.from.toLowerCase() === a ||
          tx.to?.toLowerCase() === a ||
          receipt.contractAddress?.toLowerCase() === a,
      );
      if (expected.length === 0) {
        expect(mine).toEqual({ status: "0", message: "No transactions found", result: [] });
        continue;
      }
      expect(mine.status, a).toBe("1");
      expect(mine.result.map((r: Obj) => r.hash)).toEqual(expected.map((e) => e.tx.hash));
      const first = expected[0]!;
      expect(mine.result[0]).toMatchObject({
        blockNumber: String(BigInt(first.tx.blockNumber)),
        timeStamp: String(first.time),
        from: first.tx.from.toLowerCase(),
        value: String(BigInt(first.tx.value)),
        nonce: String(BigInt(first.tx.nonce)),
        gasUsed: String(BigInt(first.receipt.gasUsed)),
        txreceipt_status: first.receipt.status === "0x1" ? "1" : "0",
        methodId: first.tx.input.length >= 10 ? first.tx.input.slice(0, 10) : "0x",
      });
      // desc is the same list reversed; a page of 2 the first two of it.
      const desc = await es({
        module: "account",
        action: "txlist",
        address: a,
        endblock: String(TO),
        sort: "desc",
        page: "1",
        offset: "2",
      });
      expect(desc.result.map((r: Obj) => r.hash)).toEqual(
        expected
          .map((e) => e.tx.hash)
          .reverse()
          .slice(0, 2),
      );
    }
  });

  it("balance, balancemulti and balancehistory are eth_getBalance (bech32 accepted)", async () => {
    const list = [...touched].slice(0, 20);
    for (const a of list) {
      const at = await node("eth_getBalance", [a, hex(TO)]);
      const hist = await es({
        module: "account",
        action: "balancehistory",
        address: a,
        blockno: String(TO),
      });
      expect(hist).toEqual({ status: "1", message: "OK", result: BigInt(at).toString() });
    }
    const a0 = list[0]!;
    const bech32 = toBech32("cosmos", Buffer.from(a0.slice(2), "hex"));
    const byBech32 = await es({
      module: "account",
      action: "balance",
      address: bech32,
      tag: hex(TO),
    });
    expect(byBech32.result).toBe(BigInt(await node("eth_getBalance", [a0, hex(TO)])).toString());
    const multi = await es({
      module: "account",
      action: "balancemulti",
      address: list.join(","),
      tag: hex(TO),
    });
    expect(multi.result).toEqual(
      await Promise.all(
        list.map(async (a) => ({
          account: a,
          balance: BigInt(await node("eth_getBalance", [a, hex(TO)])).toString(),
        })),
      ),
    );
  });

  it("tokentx, tokennfttx and token1155tx are the node's Transfer logs", async () => {
    const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    const SINGLE = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
    const logs = (await node("eth_getLogs", [
      { fromBlock: "0x1", toBlock: hex(TO), topics: [TRANSFER] },
    ])) as Obj[];
    const word = (t: string) => `0x${t.slice(26)}`;
    for (const a of touched) {
      for (const [action, n] of [
        ["tokentx", 3],
        ["tokennfttx", 4],
      ] as const) {
        const expected = logs.filter(
          (l) => l.topics.length === n && (word(l.topics[1]) === a || word(l.topics[2]) === a),
        );
        const mine = await es({
          module: "account",
          action,
          address: a,
          endblock: String(TO),
          offset: "1000",
        });
        expect(mine.status === "1" ? mine.result.length : 0, `${action} ${a}`).toBe(
          expected.length,
        );
        expect(
          (mine.status === "1" ? mine.result : []).map((r: Obj) => [
            r.hash,
            r.from,
            r.to,
            r.contractAddress,
          ]),
        ).toEqual(
          expected.map((l) => [
            l.transactionHash,
            word(l.topics[1]),
            word(l.topics[2]),
            l.address.toLowerCase(),
          ]),
        );
      }
    }
    const singles = (await node("eth_getLogs", [
      { fromBlock: "0x1", toBlock: hex(TO), topics: [SINGLE] },
    ])) as Obj[];
    if (singles.length) {
      const c = singles[0]!.address.toLowerCase();
      const mine = await es({
        module: "account",
        action: "token1155tx",
        contractaddress: c,
        endblock: String(TO),
        offset: "1000",
      });
      expect(mine.result.length).toBeGreaterThanOrEqual(
        singles.filter((l) => l.address.toLowerCase() === c).length,
      );
    }
  });

  it("getLogs is eth_getLogs for the same filter, topic operators included", async () => {
    const all = (await node("eth_getLogs", [{ fromBlock: "0x1", toBlock: hex(TO) }])) as Obj[];
    const contracts = [...new Set(all.map((l) => l.address.toLowerCase()))];
    expect(contracts.length).toBeGreaterThan(0);
    for (const c of contracts) {
      const expected = all.filter((l) => l.address.toLowerCase() === c);
      const mine = await es({
        module: "logs",
        action: "getLogs",
        address: c,
        fromBlock: "1",
        toBlock: String(TO),
        offset: "1000",
      });
      expect(
        mine.result.map((l: Obj) => [
          l.transactionHash,
          l.logIndex,
          l.topics,
          l.data,
          l.blockNumber,
        ]),
      ).toEqual(
        expected.map((l) => [l.transactionHash, l.logIndex, l.topics, l.data, l.blockNumber]),
      );
      const t0 = expected[0]!.topics[0];
      const t1 = expected.find((l) => l.topics[1] && l.topics[0] !== t0)?.topics[1];
      if (t0 && t1) {
        const or = await es({
          module: "logs",
          action: "getLogs",
          address: c,
          fromBlock: "1",
          toBlock: String(TO),
          topic0: t0,
          topic1: t1,
          topic0_1_opr: "or",
          offset: "1000",
        });
        expect(or.result.length).toBe(
          expected.filter((l) => l.topics[0] === t0 || l.topics[1] === t1).length,
        );
      }
    }
  });

  it("getstatus and gettxreceiptstatus are the receipts", async () => {
    for (const { tx, receipt } of txs) {
      const ok = receipt.status === "0x1";
      expect(
        (await es({ module: "transaction", action: "gettxreceiptstatus", txhash: tx.hash })).result,
      ).toEqual({ status: ok ? "1" : "0" });
      expect(
        (await es({ module: "transaction", action: "getstatus", txhash: tx.hash })).result.isError,
      ).toBe(ok ? "0" : "1");
    }
  });

  it("getblocknobytime is the node's last block at or before the time", async () => {
    for (const b of blocks.filter((_, i) => i % 17 === 0)) {
      const last = blocks.filter((x) => x.time <= b.time).at(-1)!.height;
      expect(
        (
          await es({
            module: "block",
            action: "getblocknobytime",
            timestamp: String(b.time),
            closest: "before",
          })
        ).result,
      ).toBe(String(last));
      const first = blocks.find((x) => x.time >= b.time)!.height;
      expect(
        (
          await es({
            module: "block",
            action: "getblocknobytime",
            timestamp: String(b.time),
            closest: "after",
          })
        ).result,
      ).toBe(String(first));
    }
  });

  it("getblockcountdown: blocks left from the projected head, seconds at the node's mean block time", async () => {
    const ask = (n: number) =>
      es({ module: "block", action: "getblockcountdown", blockno: String(n) });
    const first = await ask(TO + 1_000_000);
    expect(first.status).toBe("1");
    const head = Number(first.result.CurrentBlock);
    expect(head).toBeGreaterThanOrEqual(TO);
    // The mean gap between the node's last blocks up to the head (at most 1,000), from CometBFT's
    // block times at the millisecond (as the store keeps them).
    const heights = Array.from({ length: Math.min(head, 1000) }, (_, i) => head - i);
    const ms = await Promise.all(
      heights.map(async (h) =>
        Math.floor(Date.parse((await comet(`/block?height=${h}`)).block.header.time)),
      ),
    );
    const secs = (Math.max(...ms) - Math.min(...ms)) / Math.max(1, ms.length - 1) / 1000;
    expect(secs).toBeGreaterThan(0);
    // Another block number at the same head: the same mean, read once for the height.
    for (const target of [head + 1, head + 250, TO + 1_000_000]) {
      const r = await ask(target);
      expect(r).toEqual({
        status: "1",
        message: "OK",
        result: {
          CurrentBlock: String(head),
          CountdownBlock: String(target),
          RemainingBlock: String(target - head),
          EstimateTimeInSec: (secs * (target - head)).toFixed(1),
        },
      });
    }
    expect(await ask(head)).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Error! Block number already pass",
    });
  });

  it("Etherscan's errors: module, action, address, window, chainid, key; a later action says so", async () => {
    const a = [...touched][0]!;
    expect((await es({ module: "nope", action: "balance" })).result).toBe(
      "Error! Missing Or invalid Module name",
    );
    expect((await es({ module: "account", action: "nope" })).result).toBe(
      "Error! Missing Or invalid Action name",
    );
    expect(await es({ module: "account", action: "balance", address: "0x12" })).toEqual({
      status: "0",
      message: "NOTOK",
      result: "Error! Invalid address format",
    });
    expect(
      (await es({ module: "account", action: "txlist", address: a, page: "101", offset: "100" }))
        .result,
    ).toBe("Result window is too large, PageNo x Offset size must be less than or equal to 10000");
    expect(
      (await es({ module: "account", action: "balance", address: a }, "/v2/api")).result,
    ).toMatch(/^Missing or unsupported chainid parameter/);
    expect(
      (await es({ chainid: "1", module: "account", action: "balance", address: a })).result,
    ).toMatch(/^Missing or unsupported chainid parameter/);
    expect(
      (await es({ chainid: "262144", module: "account", action: "balance", address: a }, "/v2/api"))
        .status,
    ).toBe("1");
    expect(await es({ module: "account", action: "balance", address: a, apikey: "wrong" })).toEqual(
      { status: "0", message: "NOTOK", result: "Invalid API Key" },
    );
    expect((await es({ module: "account", action: "txlistinternal" })).result).toBe(
      "Error! address, txhash or startblock is required",
    );
    expect(
      (await es({ module: "account", action: "tokenbalance", address: a, contractaddress: "x" }))
        .result,
    ).toBe("Error! Invalid address format");
    expect((await es({ module: "stats", action: "ethprice" })).result).toMatch(/not available/);
  });

  it("txlistinternal is the node's callTracer frames under each transaction (by tx, address, blocks)", async () => {
    type Frame = Obj & { calls?: Frame[] };
    const want: Obj[] = [];
    const walk = (f: Frame, path: number[], at: { tx: Obj; time: number }) => {
      if (path.length > 0) {
        const create = String(f.type).toLowerCase().startsWith("create");
        want.push({
          blockNumber: String(Number(BigInt(at.tx.blockNumber))),
          timeStamp: String(at.time),
          hash: at.tx.hash.toLowerCase(),
          from: f.from.toLowerCase(),
          to: create ? "" : (f.to ?? "").toLowerCase(),
          value: BigInt(f.value ?? "0x0").toString(),
          contractAddress: create ? (f.to ?? "").toLowerCase() : "",
          input: "",
          type: String(f.type).toLowerCase(),
          gas: BigInt(f.gas ?? "0x0").toString(),
          gasUsed: BigInt(f.gasUsed ?? "0x0").toString(),
          traceId: path.join("_"),
          isError: f.error ? "1" : "0",
          errCode: f.error ?? "",
        });
      }
      for (const [i, c] of (f.calls ?? []).entries()) walk(c, [...path, i], at);
    };
    for (const t of txs)
      walk(
        (await node("debug_traceTransaction", [t.tx.hash, { tracer: "callTracer" }])) as Frame,
        [],
        t,
      );
    expect(want.length).toBeGreaterThan(0);
    const hashes = [...new Set(want.map((w) => w.hash))];
    for (const h of hashes) {
      const got = await es({ module: "account", action: "txlistinternal", txhash: h });
      expect(got.status).toBe("1");
      expect(got.result).toEqual(want.filter((w) => w.hash === h));
    }
    const callee = want.find((w) => w.to !== "")!;
    const byAddress = await es({
      module: "account",
      action: "txlistinternal",
      address: callee.to,
      endblock: String(TO),
      offset: "1000",
    });
    expect(byAddress.result).toEqual(
      want.filter((w) => [w.from, w.to, w.contractAddress].includes(callee.to)),
    );
    const at = callee.blockNumber;
    const inBlock = await es({
      module: "account",
      action: "txlistinternal",
      startblock: at,
      endblock: at,
      sort: "desc",
    });
    expect(inBlock.result).toEqual(want.filter((w) => w.blockNumber === at).reverse());
  });

  it("tokenbalance and tokenlist are each token's balanceOf for the account", async () => {
    const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    const tokens = new Set<string>();
    const holders = new Set<string>();
    for (const { receipt } of txs)
      for (const l of receipt.logs as Obj[])
        if (l.topics[0] === TRANSFER && l.topics.length >= 3) {
          tokens.add(l.address.toLowerCase());
          for (const t of l.topics.slice(1, 3) as string[]) holders.add(`0x${t.slice(26)}`);
        }
    holders.delete(`0x${"0".repeat(40)}`);
    expect(tokens.size).toBeGreaterThan(0);
    const balanceOf = async (c: string, h: string) =>
      BigInt(
        await node("eth_call", [
          { to: c, data: `0x70a08231${h.slice(2).padStart(64, "0")}` },
          hex(TO),
        ]),
      ).toString();
    let held = 0;
    for (const h of holders) {
      const expected: Obj[] = [];
      for (const c of [...tokens].sort()) {
        const b = await balanceOf(c, h);
        const got = await es({
          module: "account",
          action: "tokenbalance",
          contractaddress: c,
          address: h,
        });
        expect(got).toEqual({ status: "1", message: "OK", result: b });
        if (b !== "0") expected.push({ contractAddress: c, balance: b });
      }
      held += expected.length;
      const list = await es({ module: "account", action: "tokenlist", address: h });
      const mine = (list.result as Obj[]).filter((t) => tokens.has(t.contractAddress));
      expect(mine.map((t) => ({ contractAddress: t.contractAddress, balance: t.balance }))).toEqual(
        expected,
      );
      for (const t of mine)
        expect(Object.keys(t).sort()).toEqual([
          "balance",
          "contractAddress",
          "decimals",
          "name",
          "symbol",
          "type",
        ]);
    }
    expect(held).toBeGreaterThan(0);
  });

  it("ethers' EtherscanProvider, pointed at /v2/api, reads balances, the head and a transaction", async () => {
    // ethers takes Etherscan's own chains only: its URLs are rewritten to this API and chain.
    const here = (url: string) =>
      url.replace("https://api.etherscan.io/v2/api?chainid=1", `${base}/v2/api?chainid=262144`);
    class Here extends EtherscanProvider {
      override getUrl(module: string, params: Record<string, string>) {
        return here(super.getUrl(module, params));
      }
      override getPostUrl() {
        return here(super.getPostUrl());
      }
    }
    const p = new Here("mainnet", "k-test");
    const a = [...touched][0]!;
    expect(await p.getBalance(a, TO)).toBe(BigInt(await node("eth_getBalance", [a, hex(TO)])));
    expect(await p.getBlockNumber()).toBeGreaterThanOrEqual(TO);
    const t = txs[0]!.tx;
    expect((await p.getTransaction(t.hash))?.from.toLowerCase()).toBe(t.from.toLowerCase());
    expect(await p.getTransactionCount(t.from, TO)).toBe(
      Number(BigInt(await node("eth_getTransactionCount", [t.from, hex(TO)]))),
    );
  });

  it("cosmostxlist lists every transaction CometBFT's tx_search names the account in, and no other", async () => {
    // The account that sent the most EVM transactions (it signed Cosmos ones too: the scenario's).
    const sent = new Map<string, number>();
    for (const { tx } of txs)
      sent.set(tx.from.toLowerCase(), (sent.get(tx.from.toLowerCase()) ?? 0) + 1);
    const a = [...sent.entries()].sort((x, y) => y[1] - x[1])[0]![0];
    const bech32 = toBech32("cosmos", Buffer.from(a.slice(2), "hex"));
    const named = new Set((await txsNaming(cometRpc, bech32, `tx.height<=${TO}`)).keys());
    expect(named.size).toBeGreaterThan(3);
    const mine: Obj[] = [];
    for (let page = 1; ; page++) {
      const r = await es({
        module: "account",
        action: "cosmostxlist",
        address: bech32,
        endblock: String(TO),
        page: String(page),
        offset: "50",
      });
      if (r.status !== "1") break;
      mine.push(...r.result);
    }
    const hashes = mine.map((t) => t.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect([...named].filter((h) => !hashes.includes(h))).toEqual([]);
    // Each one listed: the node's result names the account (either form) and agrees on the fields.
    for (const t of mine) {
      const n = await comet(`/tx?hash=0x${t.hash}`);
      const text = JSON.stringify(n.tx_result.events).toLowerCase();
      expect(text.includes(bech32) || text.includes(a.slice(2)), t.hash).toBe(true);
      expect(t).toMatchObject({
        blockNumber: String(n.height),
        transactionIndex: String(n.index),
        gasUsed: String(n.tx_result.gas_used),
        gasWanted: String(n.tx_result.gas_wanted),
      });
    }
    // Its EVM transactions are among them, under their Cosmos hash.
    const evm = txs.filter(({ tx }) => tx.from.toLowerCase() === a).map(({ tx }) => tx.hash);
    expect(mine.flatMap((t) => t.evmHashes)).toEqual(expect.arrayContaining(evm));
  });

  it("two APIs in one process each ask the node through their own proxy", async () => {
    // A second API over the same store whose only upstream is a port nobody listens on.
    const other = await startRpcServer(
      store,
      rpcTestSettings({ upstreams: parseUpstreams("http://127.0.0.1:9") }),
    );
    try {
      const q = { module: "proxy", action: "eth_getBlockByNumber", tag: hex(TO), boolean: "false" };
      const ask = async (at: string) =>
        (await (await fetch(`${at}/api?${new URLSearchParams(q)}`)).json()) as Obj;
      const block = await node("eth_getBlockByNumber", [hex(TO), false]);
      // The first API still asks the reference node, after the second attached its proxy.
      expect((await ask(base)).result.hash).toBe(block.hash);
      const stranded = await ask(other.url.replace(/\/rpc$/, ""));
      expect(stranded.result?.hash).toBeUndefined();
      expect(JSON.stringify(stranded)).not.toContain(block.hash);
    } finally {
      await other.close();
    }
    // Once the second has closed, the first is unchanged.
    expect((await es({ module: "proxy", action: "eth_blockNumber" })).result).toMatch(
      /^0x[0-9a-f]+$/,
    );
  });
});
