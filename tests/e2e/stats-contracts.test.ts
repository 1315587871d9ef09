import { endpoints, nodePorts } from "@explorer/infra";
import { JsonRpcProvider, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReader } from "../lib/api-node.ts";
import { mapLimit } from "../lib/comet.ts";
import { type CallFrame, createdBelow } from "../lib/created.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's contract charts and counters: the contracts the node says each block created (its
 * receipts' contractAddress, and the CREATE and CREATE2 frames of its call traces that did not
 * fail), per UTC day of block time. Not our tables.
 */
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });

let store: ScenarioStore;
let api: string;
/** Per height: its block time (ms) and the contracts it created. */
const blocks: { height: number; ms: number; day: string; created: number }[] = [];
const { get } = apiReader(() => api);

const createdAt = async (b: { number: string; transactions: string[] }): Promise<number> => {
  if (b.transactions.length === 0) return 0;
  const receipts = await mapLimit(b.transactions, 4, (t) =>
    provider.send("eth_getTransactionReceipt", [t]),
  );
  const traces = (await provider.send("debug_traceBlockByNumber", [
    b.number,
    { tracer: "callTracer" },
  ])) as { result: CallFrame }[];
  expect(traces.length).toBe(receipts.length);
  return receipts.reduce(
    (n, r, i) =>
      r.status !== "0x1"
        ? n
        : n + (r.contractAddress ? 1 : 0) + createdBelow(traces[i]!.result).length,
    0,
  );
};

beforeAll(async () => {
  const s = await statsStore("stats-contracts");
  ({ store, api } = s);
  const { heights } = s;
  blocks.push(
    ...(await mapLimit(heights, 8, async (h) => {
      const b = await provider.send("eth_getBlockByNumber", [toQuantity(h), false]);
      const ms = Number(b.timestamp) * 1000;
      return {
        height: h,
        ms,
        day: new Date(ms).toISOString().slice(0, 10),
        created: await createdAt(b),
      };
    })),
  );
}, 300_000);

afterAll(async () => store?.close());

const points = async (id: string) =>
  ((await get(`/stats/lines/${id}`)).chart as { date: string; value: string }[]).map((p) => [
    p.date,
    p.value,
  ]);

describe("contract charts and counters", () => {
  it("newContracts and contractsGrowth: the contracts the node's blocks created, per day and so far", async () => {
    const perDay = new Map<string, number>();
    for (const b of blocks) perDay.set(b.day, (perDay.get(b.day) ?? 0) + b.created);
    expect([...perDay.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(await points("newContracts")).toEqual([...perDay].map(([d, n]) => [d, String(n)]));
    const days = [...perDay.keys()];
    const soFar = (i: number) => days.slice(0, i + 1).reduce((s, d) => s + perDay.get(d)!, 0);
    expect(await points("contractsGrowth")).toEqual(days.map((d, i) => [d, String(soFar(i))]));
  });

  it("totalContracts and newContracts24h: all of them, and those of the 24 hours up to the last block", async () => {
    const by = new Map(
      ((await get("/stats/counters")).counters as { id: string; value: string }[]).map((c) => [
        c.id,
        c.value,
      ]),
    );
    const total = blocks.reduce((n, b) => n + b.created, 0);
    expect(by.get("totalContracts")).toBe(String(total));
    const last = blocks.at(-1)!.ms;
    const recent = blocks.filter((b) => b.ms > last - 86_400_000);
    expect(by.get("newContracts24h")).toBe(String(recent.reduce((n, b) => n + b.created, 0)));
  });
});
