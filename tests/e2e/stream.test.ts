import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CosmosTxClient, keyFromMnemonic, keyFromPrivateKey } from "@explorer/chain";
import { endpoints, nodePorts, testAccounts } from "@explorer/infra";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { hexlify, JsonRpcProvider, WebSocketProvider } from "ethers";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../lib/net.ts";
import { exited, spawnTs } from "../lib/spawn-ts.ts";
import { SteadyWallet } from "../lib/wallet.ts";

/**
 * Issue 6 (in part): the all-in-one service follows the reference chain (ingester → log →
 * projector → API in one process) and socket.io-client, a real client, listens.
 */
const e = endpoints(nodePorts(0));
// judy: a spare account the scenario never uses.
const judy = keyFromMnemonic(testAccounts.judy.mnemonic, "cosmos");
const main = fileURLToPath(new URL("../../apps/explorer/src/main.ts", import.meta.url));
let port = 0;
let startHeight = 0;
let child: ChildProcess;
const base = () => `http://127.0.0.1:${port}`;
const connectClient = (
  opts: { query?: Record<string, string>; auth?: Record<string, unknown> } = {},
): Socket =>
  // The SPEC's form: {base_url}/stream (namespace /stream), handshake path /api/1.0/stream.
  io(`${base()}/stream`, {
    path: "/api/1.0/stream",
    transports: ["websocket"],
    forceNew: true,
    ...opts,
  });

/** Waits on events, not fixed sleeps: a loaded host can go several seconds without a block. */
const until = async (done: () => boolean, what: string, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

beforeAll(async () => {
  port = await freePort();
  // Follow from a recent height: catching up with a long chain from 1 is not what is tested here.
  const head = Number(
    ((await (await fetch(`${e.cometRpc}/status`)).json()) as any).result.sync_info
      .latest_block_height,
  );
  startHeight = Math.max(1, head - 20);
  child = spawnTs(main, ["start"], {
    env: {
      ...process.env,
      EXPLORER_DATA_DIR: mkdtempSync(join(tmpdir(), "stream-")),
      API_PORT: String(port),
      COMET_RPC_URL: e.cometRpc,
      COSMOS_REST_URL: e.rest,
      EVM_RPC_URL: e.evmRpc,
      METADATA_FETCH: "false",
      PROGRESS: "false",
      START_HEIGHT: String(startHeight),
    },
    stdio: "ignore",
  });
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${base()}/api/1.0/stat`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the explorer did not start");
}, 120_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  if (child) await exited(child);
});

describe("stream", () => {
  it("new-block arrives for every height in order, each already answerable by the REST API", async () => {
    const client = connectClient();
    const heights: number[] = [];
    const checks: Promise<number>[] = [];
    client.on("new-block", (b: { height: number }) => {
      heights.push(b.height);
      checks.push(fetch(`${base()}/api/1.0/blocks/${b.height}`).then((r) => r.status));
    });
    await until(() => heights.length > 5, "six heights", 60_000);
    client.close();
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBe(heights[i - 1]! + 1);
    expect(new Set(await Promise.all(checks))).toEqual(new Set([200]));
  }, 90_000);

  it("new-txs carries the block's Transaction records; new-tx each; an address filter keeps only its own", async () => {
    const all = connectClient();
    const mine = connectClient({ query: { address: judy.evm } });
    const batches: { height: number; hashes: string[] }[] = [];
    const mineTxs: { addresses: string[]; txhash: string }[] = [];
    all.on("new-txs", (txs: { height: number; txhash: string }[]) =>
      batches.push({ height: txs[0]!.height, hashes: txs.map((t) => t.txhash) }),
    );
    mine.on("new-tx", (t: { addresses: string[]; txhash: string }) => mineTxs.push(t));
    // New activity: a bank send from judy (funding a fresh account), a send from that account to
    // itself (judy not in it: the filter must keep it out), and an EVM transfer to judy.
    const other = keyFromPrivateKey(hexlify(randomBytes(32)), "cosmos");
    const send = (from: typeof judy, to: string, amount: string) => ({
      typeUrl: "/cosmos.bank.v1beta1.MsgSend",
      value: MsgSend.fromPartial({
        fromAddress: from.bech32,
        toAddress: to,
        amount: [{ denom: "atest", amount }],
      }),
    });
    const cosmos = await CosmosTxClient.connect({ rpcUrl: e.cometRpc, denom: "atest" });
    const sent = await cosmos.signAndBroadcast(judy, [
      send(judy, other.bech32, (10n ** 18n).toString()),
    ]);
    const notJudy = await cosmos.signAndBroadcast(other, [send(other, other.bech32, "1")]);
    cosmos.disconnect();
    // right after judy's bank send: the node's pending count may not have it yet
    const wallet = new SteadyWallet(
      keyFromMnemonic(testAccounts.judy.mnemonic, "cosmos").privateKey,
      new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true }),
    );
    const evmTx = await wallet.sendTransaction({ to: judy.evm, value: 1n });
    const deadline = Date.now() + 60_000;
    const seen = () =>
      [sent, notJudy].every((t) => batches.some((b) => b.hashes.includes(t.transactionHash))) &&
      mineTxs.length >= 2;
    while (Date.now() < deadline && !seen()) await new Promise((r) => setTimeout(r, 250));
    expect(seen(), `${sent.transactionHash} and ${evmTx.hash} streamed`).toBe(true);
    all.close();
    mine.close();
    expect(batches.length).toBeGreaterThan(0);
    for (const b of batches.slice(0, 10)) {
      const rest = (await (
        await fetch(`${base()}/api/1.0/txs?height=${b.height}&limit=100&sort=height`)
      ).json()) as { docs: { txhash: string }[] };
      expect(new Set(b.hashes)).toEqual(new Set(rest.docs.map((t) => t.txhash)));
    }
    expect(mineTxs.every((t) => t.addresses.includes(judy.evm.toLowerCase()))).toBe(true);
    const mineHashes = mineTxs.map((t) => t.txhash);
    expect(mineHashes).toContain(sent.transactionHash);
    expect(mineHashes).not.toContain(notJudy.transactionHash);
  }, 90_000);

  it("a client that reconnects with the last height it saw gets what it missed, then goes on", async () => {
    // A watcher stays connected: what it has been sent, the server has buffered for replay.
    const watcher = connectClient();
    let latest = 0;
    watcher.on("new-block", (b: { height: number }) => {
      latest = b.height;
    });
    const first = connectClient();
    let last = 0;
    first.on("new-block", (b: { height: number }) => {
      last = b.height;
    });
    await until(() => last > 0, "a first block");
    first.close();
    const seenOffline = last;
    // Offline until the stream has sent at least two heights this client missed.
    await until(() => latest >= seenOffline + 2, "two heights sent while offline", 60_000);
    const missedTo = latest;
    const again = connectClient({ auth: { since: seenOffline } });
    const heights: number[] = [];
    again.on("new-block", (b: { height: number }) => heights.push(b.height));
    await until(
      () => heights.length > 0 && heights.at(-1)! > missedTo,
      "the missed heights, then a live one",
    );
    again.close();
    watcher.close();
    expect(heights[0]).toBe(seenOffline + 1);
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBe(heights[i - 1]! + 1);
  }, 120_000);

  it("OPTIONS on the two stream entries answers a description with CORS headers", async () => {
    for (const name of ["new-block", "new-txs"]) {
      const r = await fetch(`${base()}/api/1.0/stream/${name}`, { method: "OPTIONS" });
      expect(r.status).toBe(200);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(((await r.json()) as { event: string }).event).toBe(name);
    }
  });
});

describe("the JSON-RPC proxy of a start that follows a node", () => {
  it("subscribes at that node over its WebSocket (ethers' WebSocketProvider: new blocks)", async () => {
    const ws = new WebSocketProvider(`ws://127.0.0.1:${port}/rpc`, 262144, { staticNetwork: true });
    try {
      const blocks: number[] = [];
      await ws.on("block", (n: number) => blocks.push(n));
      await until(() => blocks.length >= 2, "two new heads", 60_000);
      expect(blocks[1]).toBeGreaterThan(blocks[0]!);
      const node = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
      expect((await node.getBlock(blocks[0]!))?.number).toBe(blocks[0]);
      node.destroy();
    } finally {
      await ws.destroy();
    }
  }, 90_000);
});

describe("a start from a later height (START_HEIGHT)", () => {
  it("lists blocks from that height: no empty pages before it, hasNext false on the last page", async () => {
    const get = async (path: string) =>
      (await (await fetch(`${base()}/api/1.0${path}`)).json()) as {
        docs: { height: number }[];
        hasNext: boolean;
      };
    let oldest = await get("/blocks?sort=height&limit=5");
    for (let i = 0; i < 300 && oldest.docs.length < 5; i++) {
      await new Promise((r) => setTimeout(r, 200)); // run alone, this test can come first
      oldest = await get("/blocks?sort=height&limit=5");
    }
    expect(oldest.docs.map((b) => b.height)).toEqual([0, 1, 2, 3, 4].map((i) => startHeight + i));
    const top = (await get("/blocks?limit=1")).docs[0]!.height;
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const p = await get(`/blocks?to_height=${top}&limit=7&page=${page}`);
      expect(p.docs.length, `page ${page}`).toBeGreaterThan(0);
      seen.push(...p.docs.map((b) => b.height));
      if (!p.hasNext) break;
    }
    expect(seen).toEqual(Array.from({ length: top - startHeight + 1 }, (_, i) => top - i));
    // `height` narrows the range with from_height and to_height, as on /txs.
    expect(
      (await get(`/blocks?height=${startHeight + 1}&from_height=${startHeight + 2}`)).docs,
    ).toEqual([]);
    expect((await get(`/blocks?height=${startHeight - 1}`)).docs).toEqual([]);
    // from_height=0 means from the start, as on /txs
    expect((await get("/blocks?sort=height&limit=1&from_height=0")).docs[0]?.height).toBe(
      startHeight,
    );
  });
});
