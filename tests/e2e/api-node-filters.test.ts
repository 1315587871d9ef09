import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { TOPIC } from "@explorer/raw-block";
import { Contract, JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader, cometReader, topicAddress, transfersOf } from "../lib/api-node.ts";
import { readChainTxs } from "../lib/comet.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * Issue 5's acceptance, the filters that were checked against the API itself only: each list
 * read to its last page (hasNext false there), both path families, both sort directions, and
 * every record compared with what the node holds (CometBFT blocks and txs, EVM logs, receipts,
 * balanceOf) after the scenario.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const { transfer: TRANSFER, transferSingle: SINGLE, transferBatch: BATCH } = TOPIC;

let store: ScenarioStore;
let api: string;
const top = () => scenario.toHeight;

const { get, every } = apiReader(() => api);
const comet = cometReader(e.cometRpc);
const logs = (filter: { address?: string; topics?: (string | string[] | null)[] }) =>
  provider.getLogs({ ...filter, fromBlock: 1, toBlock: top() });
const asListed = (t: any) => {
  const [txHash, logIndex, sub] = t.uniqueHash.split("-");
  return {
    txHash,
    logIndex: Number(logIndex),
    sub: Number(sub),
    contract: t.contractAddress,
    from: t.addressFrom,
    to: t.addressTo,
    value: t.value,
    tokenId: t.tokenId,
  };
};
const byPlace = (a: { txHash: string; logIndex: number; sub: number }) =>
  `${a.txHash}-${String(a.logIndex).padStart(6, "0")}-${String(a.sub).padStart(4, "0")}`;

beforeAll(async () => {
  store = await scenarioStore("api-node-filters", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
}, 300_000);

afterAll(async () => store?.close());

describe("token transfers against the node's logs", () => {
  it("every transfer of each token, field by field, both sort directions, both families", async () => {
    for (const name of ["TestToken", "FeeToken", "TestNFT", "TestMulti"]) {
      const address = scenario.contracts[name]!.toLowerCase();
      const node = (await logs({ address, topics: [[TRANSFER, SINGLE, BATCH]] })).flatMap(
        transfersOf,
      );
      expect(node.length, name).toBeGreaterThan(0);
      const asc = (await every(`/token-transfers?contractAddress=${address}&sort=blockNumber`)).map(
        asListed,
      );
      expect(
        [...asc].sort((a, b) => byPlace(a).localeCompare(byPlace(b))),
        name,
      ).toEqual([...node].sort((a, b) => byPlace(a).localeCompare(byPlace(b))));
      const desc = (
        await every(`/token-transfers?contractAddress=${address}&sort=-blockNumber`)
      ).map(asListed);
      expect(desc.map(byPlace).sort(), name).toEqual(asc.map(byPlace).sort());
      const heights = async (sort: string) =>
        (await every(`/token-transfers?contractAddress=${address}&sort=${sort}`)).map(
          (t) => t.blockNumber,
        );
      const up = await heights("blockNumber");
      expect(up).toEqual([...up].sort((a, b) => a - b));
      const down = await heights("-blockNumber");
      expect(down).toEqual([...down].sort((a, b) => b - a));
      // family A lists CFC-20 transfers only (another type when asked for by tokenType)
      const a = (await every(`/token-erc20-transfers?contractAddress=${address}`)).map(asListed);
      if (name === "TestToken" || name === "FeeToken")
        expect(a.map(byPlace).sort()).toEqual(asc.map(byPlace).sort());
      else expect(a, name).toEqual([]);
    }
  });

  it("addressFrom and addressTo: the logs with that address as sender, or as recipient", async () => {
    for (const name of ["TestToken", "TestNFT", "TestMulti"]) {
      const address = scenario.contracts[name]!.toLowerCase();
      const node = (await logs({ address, topics: [[TRANSFER, SINGLE, BATCH]] })).flatMap(
        transfersOf,
      );
      const parties = new Set(node.flatMap((t) => [t.from, t.to]));
      for (const party of parties) {
        for (const [param, side] of [
          ["addressFrom", "from"],
          ["addressTo", "to"],
        ] as const) {
          const listed = (
            await every(`/token-transfers?contractAddress=${address}&${param}=${party}`)
          ).map(asListed);
          expect(listed.map(byPlace).sort(), `${name} ${param}=${party}`).toEqual(
            node
              .filter((t) => t[side] === party)
              .map(byPlace)
              .sort(),
          );
        }
      }
    }
  });
});

describe("holders against balanceOf", () => {
  it("every address with a balance is listed, with it, in both families; sorted by balance both ways", async () => {
    for (const name of ["TestToken", "FeeToken"]) {
      const address = scenario.contracts[name]!.toLowerCase();
      const token = new Contract(
        address,
        ["function balanceOf(address) view returns (uint256)"],
        provider,
      );
      const seen = new Set(
        (await logs({ address, topics: [TRANSFER] })).flatMap((l) => [
          topicAddress(l.topics[1]!),
          topicAddress(l.topics[2]!),
        ]),
      );
      // the scenario's fee token also credits without a Transfer: any holder the API lists counts
      const listedB = await every(`/token-holders?contractAddress=${address}&sort=-balance`);
      for (const h of listedB) seen.add(h.address);
      const node = new Map<string, string>();
      for (const holder of seen) {
        const balance = String(await token.getFunction("balanceOf")(holder, { blockTag: top() }));
        if (balance !== "0") node.set(holder, balance);
      }
      expect(node.size, name).toBeGreaterThan(1);
      const asMap = (docs: any[]) => new Map(docs.map((h) => [h.address, h.balance]));
      expect(asMap(listedB), name).toEqual(node);
      const listedA = await every(`/token-erc20-holders?contractAddress=${address}&sort=-balance`);
      expect(asMap(listedA), name).toEqual(node);
      const down = listedB.map((h) => BigInt(h.balance));
      expect(down).toEqual([...down].sort((x, y) => (y > x ? 1 : y < x ? -1 : 0)));
      const up = (await every(`/token-holders?contractAddress=${address}&sort=balance`)).map((h) =>
        BigInt(h.balance),
      );
      expect(up).toEqual([...up].sort((x, y) => (x > y ? 1 : x < y ? -1 : 0)));
    }
  });
});

describe("event logs against eth_getLogs", () => {
  it("by block hash, block number, transaction hash and origin: exactly the node's logs", async () => {
    const all = await logs({});
    expect(all.length).toBeGreaterThan(10);
    const key = (txHash: string, index: number) => `${txHash}-${index}`;
    const listed = async (filter: string) =>
      (await every(`/event-logs?${filter}`)).map((l) => key(l.transactionHash, l.logIndex)).sort();
    const sample = [all[0]!, all[Math.floor(all.length / 2)]!, all.at(-1)!];
    for (const l of sample) {
      const inBlock = all.filter((x) => x.blockNumber === l.blockNumber);
      const expected = inBlock.map((x) => key(x.transactionHash, x.index)).sort();
      expect(await listed(`blockNumber=${l.blockNumber}`)).toEqual(expected);
      expect(await listed(`blockHash=${l.blockHash}`)).toEqual(expected);
      const inTx = all.filter((x) => x.transactionHash === l.transactionHash);
      expect(await listed(`transactionHash=${l.transactionHash}`)).toEqual(
        inTx.map((x) => key(x.transactionHash, x.index)).sort(),
      );
      const origin = (await provider.getTransaction(l.transactionHash))!.from.toLowerCase();
      const fromOrigin: string[] = [];
      for (const x of all)
        if ((await provider.getTransaction(x.transactionHash))!.from.toLowerCase() === origin)
          fromOrigin.push(key(x.transactionHash, x.index));
      expect(await listed(`originAddress=${origin}`)).toEqual(fromOrigin.sort());
    }
  });
});

describe("transactions and blocks against CometBFT", () => {
  const txHashesOf = async (h: number) => (await readChainTxs(e.cometRpc, h, h)).map((t) => t.hash);

  it("from_height and to_height: the node's txs of those blocks, newest first", async () => {
    const busy = scenario.sent.map((s) => s.height).sort((a, b) => a - b);
    const from = busy[Math.floor(busy.length / 3)]!;
    const to = Math.min(from + 12, top());
    const node = (await readChainTxs(e.cometRpc, from, to)).map((t) => t.hash).reverse();
    expect(node.length).toBeGreaterThan(2);
    const listed = await every(`/txs?from_height=${from}&to_height=${to}`);
    expect(listed.map((t) => t.txhash)).toEqual(node);
    const oldest = await every(`/txs?from_height=${from}&to_height=${to}&sort=height`);
    expect(oldest.map((t) => t.txhash)).toEqual([...node].reverse());
  });

  it("txhash and txhashes, by Cosmos or EVM hash: the node's tx", async () => {
    const evm = scenario.sent.filter((s) => s.hash.startsWith("0x")).slice(0, 2);
    const cosmos = scenario.sent.filter((s) => !s.hash.startsWith("0x")).slice(0, 2);
    for (const s of [...evm, ...cosmos]) {
      const [t] = (await get(`/txs?txhash=${s.hash}`)).docs;
      expect(t.height, s.label).toBe(s.height);
      expect(await txHashesOf(s.height), s.label).toContain(t.txhash);
    }
    const both = (await every(`/txs?txhashes=${cosmos.map((s) => s.hash).join(",")}`)).map(
      (t) => t.txhash,
    );
    expect(both.sort()).toEqual(cosmos.map((s) => s.hash.toUpperCase()).sort());
  });

  it("every block, oldest first to the last page: the node's hash, its txs and its EVM block", async () => {
    const blocks = await every("/blocks?sort=height");
    expect(blocks.map((b) => b.height)).toEqual(Array.from({ length: top() }, (_, i) => i + 1));
    for (let from = 1; from <= top(); from += 20) {
      const to = Math.min(from + 19, top());
      for (const m of (await comet(`/blockchain?minHeight=${from}&maxHeight=${to}`)).block_metas)
        expect(blocks[Number(m.header.height) - 1].block_hash).toBe(m.block_id.hash);
    }
    for (const s of scenario.sent.slice(0, 20))
      expect(blocks[s.height - 1].txs, s.label).toEqual(await txHashesOf(s.height));
    for (const h of [1, Math.floor(top() / 2), top()])
      expect(blocks[h - 1].evm?.hash, `block ${h}`).toBe((await provider.getBlock(h))!.hash);
  });
});
