import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import type { CallFrame } from "@explorer/raw-block";
import { JsonRpcProvider, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader } from "../lib/api-node.ts";
import { mapLimit } from "../lib/comet.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * `/internal-txs` against the node: for every EVM transaction of the scenario's heights, its
 * frames equal the node's own debug_traceTransaction (callTracer), flattened depth first; the
 * address and block filters give exactly the frames the node's traces say, in both directions.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });

let store: ScenarioStore;
let api: string;
const { get, every } = apiReader(() => api);

/** A node call tree as the API's records, depth first (a hex string's size in bytes). */
const recordsOf = (
  f: CallFrame,
  tx: { hash: string; block: number; index: number },
  path: number[] = [],
  out: object[] = [],
): object[] => {
  const size = (h: string | undefined) => (h ? (h.length - 2) / 2 : 0);
  out.push({
    blockNumber: tx.block,
    transactionHash: tx.hash,
    transactionIndex: tx.index,
    traceIndex: out.length,
    traceAddress: path,
    type: f.type.toLowerCase(),
    from: f.from.toLowerCase(),
    to: (f.to ?? "").toLowerCase(),
    value: BigInt(f.value ?? "0x0").toString(),
    gas: BigInt(f.gas).toString(),
    gasUsed: BigInt(f.gasUsed).toString(),
    inputSize: size(f.input),
    outputSize: size(f.output),
    error: f.error ?? "",
  });
  (f.calls ?? []).forEach((c, i) => {
    recordsOf(c, tx, [...path, i], out);
  });
  return out;
};

/** Every frame of every EVM transaction of the scenario's heights, as the node traces them. */
let node: { hash: string; block: number; frames: any[] }[];

const readNode = async () => {
  const heights = Array.from(
    { length: scenario.toHeight - scenario.fromHeight + 1 },
    (_, i) => scenario.fromHeight + i,
  );
  const blocks = await mapLimit(heights, 8, (h) =>
    provider.send("eth_getBlockByNumber", [toQuantity(h), false]),
  );
  const txs = blocks.flatMap((b) =>
    (b.transactions as string[]).map((hash, index) => ({
      hash: hash.toLowerCase(),
      block: Number(b.number),
      index,
    })),
  );
  return mapLimit(txs, 4, async (tx) => {
    const root: CallFrame = await provider.send("debug_traceTransaction", [
      tx.hash,
      { tracer: "callTracer" },
    ]);
    return { ...tx, frames: recordsOf(root, tx) };
  });
};

/** A record without its time (the node's trace has none; the block's is checked elsewhere). */
const bare = ({ timestamp: _, ...r }: any) => r;

beforeAll(async () => {
  store = await scenarioStore("internal-txs", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  node = await readNode();
}, 600_000);

afterAll(async () => store?.close());

describe("/internal-txs", () => {
  it("gives every frame of each scenario EVM transaction, as debug_traceTransaction does", async () => {
    expect(node.length).toBeGreaterThan(10);
    // the scenario makes contracts create contracts and calls that revert: not only roots
    const types = new Set(node.flatMap((t) => t.frames.map((f) => f.type)));
    for (const t of ["call", "create", "create2"]) expect(types, t).toContain(t);
    expect(node.some((t) => t.frames.some((f) => f.error !== ""))).toBe(true);
    for (const tx of node) {
      const docs = await every(`/internal-txs?txHash=${tx.hash}&sort=blockNumber`);
      expect(docs.map(bare), tx.hash).toEqual(tx.frames);
      for (const d of docs) expect(Date.parse(d.timestamp), tx.hash).toBeGreaterThan(0);
    }
  });

  it("finds an address's frames, either side, newest first or oldest first", async () => {
    const all = node.flatMap((t) => t.frames);
    const created = all.filter((f) => f.type === "create" || f.type === "create2");
    // a factory (a contract that creates), and a contract it created
    const addresses = [...new Set(created.flatMap((f) => [f.from, f.to]))].slice(0, 4);
    expect(addresses.length).toBeGreaterThan(1);
    for (const a of addresses) {
      const want = all.filter((f) => f.from === a || f.to === a);
      expect((await every(`/internal-txs?address=${a}&sort=blockNumber`)).map(bare), a).toEqual(
        want,
      );
      expect((await every(`/internal-txs?address=${a}`)).map(bare), a).toEqual([...want].reverse());
    }
  });

  it("finds a block's frames, and one transaction's within an address's", async () => {
    const tx = node.find((t) => t.frames.length > 1)!;
    const inBlock = node.filter((t) => t.block === tx.block).flatMap((t) => t.frames);
    expect(
      (await every(`/internal-txs?blockNumber=${tx.block}&sort=blockNumber`)).map(bare),
    ).toEqual(inBlock);
    const callee = tx.frames[1].to;
    const both = await every(`/internal-txs?txHash=${tx.hash}&address=${callee}&sort=blockNumber`);
    expect(both.map(bare)).toEqual(tx.frames.filter((f) => f.from === callee || f.to === callee));
  });

  it("refuses a malformed filter with 400 and a message", async () => {
    for (const q of ["address=0x12", "txHash=zz", "blockNumber=-1", "sort=gas"]) {
      const r = await fetch(`${api}/internal-txs?${q}`);
      expect(r.status, q).toBe(400);
      expect(((await r.json()) as { error?: string }).error, q).toBeTruthy();
    }
    expect(
      (await get("/internal-txs?address=0x000000000000000000000000000000000000dead")).docs,
    ).toEqual([]);
  });
});
