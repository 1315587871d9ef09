import { fromBase64, toBech32 } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { touched } from "@explorer/raw-block";
import { MsgMultiSend, MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { JsonRpcProvider, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cometGet, mapLimit } from "../lib/comet.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's account and native coin charts and counters, against the node: the accounts that
 * signed (the `acc_seq` of each transaction's `tx` events in CometBFT's block results) or sent
 * an EVM transaction (its EVM block), the bank sends of its transactions and the EVM transactions
 * with a value that succeeded (receipts), and the bank's holders of the coin at each day's last
 * height (`denom_owners`) among the accounts the node's blocks mention (the ingester's `touched`
 * over the node's own blocks, results and transactions: an account never mentioned, such as a
 * genesis balance never moved, is no holder the log can know). Not our tables.
 */
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const DENOM = "atest";
const SEND = "/cosmos.bank.v1beta1.MsgSend";
const MULTI_SEND = "/cosmos.bank.v1beta1.MsgMultiSend";

interface NodeBlock {
  height: number;
  day: string;
  /** Accounts that signed or sent a transaction of it (bech32). */
  active: Set<string>;
  /** Native coin transfers: bank sends carrying it, and EVM transactions with a value that succeeded. */
  transfers: number;
  /** Accounts its block, results and transactions mention. */
  mentioned: readonly string[];
}

const hasNative = (coins: readonly { denom: string; amount: string }[]) =>
  coins.some((c) => c.denom === DENOM && BigInt(c.amount) > 0n);

const readBlock = async (h: number): Promise<NodeBlock> => {
  const block = await cometGet(e.cometRpc, `/block?height=${h}`);
  const results = await cometGet(e.cometRpc, `/block_results?height=${h}`);
  const evm = await provider.send("eth_getBlockByNumber", [toQuantity(h), true]);
  const txs = await fetch(`${e.rest}/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100000`);
  const receipts = await provider.send("eth_getBlockReceipts", [toQuantity(h)]);
  const traces = await provider.send("debug_traceBlockByNumber", [
    toQuantity(h),
    { tracer: "callTracer" },
  ]);
  const mentioned = touched(
    {
      comet: { block, blockResults: results },
      txs: ((await txs.json()) as { txs: any[] | null }).txs ?? [],
      evm: { block: evm, receipts: receipts ?? [], traces },
    },
    "cosmos",
  ).accounts;
  const active = new Set<string>();
  let transfers = 0;
  ((block.block.data.txs ?? []) as string[]).forEach((b64, i) => {
    const r = results.txs_results[i] as { code: number; events: any[] };
    for (const ev of r.events.filter((x) => x.type === "tx"))
      for (const a of ev.attributes.filter((x: any) => x.key === "acc_seq"))
        active.add(String(a.value).split("/")[0]!);
    if (r.code !== 0) return;
    for (const m of TxBody.decode(TxRaw.decode(fromBase64(b64)).bodyBytes).messages) {
      if (m.typeUrl === SEND && hasNative(MsgSend.decode(m.value).amount)) transfers++;
      if (m.typeUrl === MULTI_SEND)
        transfers += MsgMultiSend.decode(m.value).outputs.filter((o) => hasNative(o.coins)).length;
    }
  });
  for (const t of evm.transactions as { hash: string; from: string; value: string }[]) {
    active.add(toBech32("cosmos", Buffer.from(t.from.slice(2), "hex")));
    if (BigInt(t.value) === 0n) continue;
    const receipt = await provider.send("eth_getTransactionReceipt", [t.hash]);
    if (receipt.status === "0x1") transfers++;
  }
  return {
    height: h,
    day: String(block.block.header.time).slice(0, 10),
    active,
    transfers,
    mentioned: [...mentioned],
  };
};

/** Accounts holding the coin at height `h`, as the bank lists them (every page). */
const holdersAt = async (h: number): Promise<string[]> => {
  const out: string[] = [];
  let key = "";
  do {
    const q = `pagination.limit=200${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`;
    const r = await fetch(`${e.rest}/cosmos/bank/v1beta1/denom_owners/${DENOM}?${q}`, {
      headers: { "x-cosmos-block-height": String(h) },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      denom_owners: { address: string; balance: { amount: string } }[];
      pagination: { next_key: string | null };
    };
    for (const o of body.denom_owners) if (BigInt(o.balance.amount) > 0n) out.push(o.address);
    key = body.pagination.next_key ?? "";
  } while (key);
  return out;
};

let store: ScenarioStore;
let get: (path: string) => Promise<any>;
let blocks: NodeBlock[];
/** Holders at each day's last height among the accounts mentioned up to it, by day. */
const holders = new Map<string, number>();

beforeAll(async () => {
  const s = await statsStore("stats-accounts");
  ({ store, get } = s);
  blocks = await mapLimit(s.heights, 8, readBlock);
  const last = new Map<string, number>();
  for (const b of blocks) last.set(b.day, Math.max(last.get(b.day) ?? 0, b.height));
  for (const [day, h] of last) {
    const seen = new Set(blocks.filter((b) => b.height <= h).flatMap((b) => b.mentioned));
    holders.set(day, (await holdersAt(h)).filter((a) => seen.has(a)).length);
  }
}, 300_000);

afterAll(async () => store?.close());

const days = () => [...new Set(blocks.map((b) => b.day))].sort();
const points = async (q: string) =>
  (
    (await get(`/stats/lines/${q}`)).chart as { date: string; date_to: string; value: string }[]
  ).map((p) => [p.date, p.date_to, p.value]);
/** Distinct active accounts of the blocks whose day is in [from, to]. */
const activeBetween = (from: string, to: string) =>
  new Set(blocks.filter((b) => b.day >= from && b.day <= to).flatMap((b) => [...b.active])).size;
const dayPoints = (value: (day: string) => number | string) =>
  days().map((d) => [d, d, String(value(d))]);

describe("account charts and counters", () => {
  it("activeAccounts, newAccounts, accountsGrowth: the signers and EVM senders of each day", async () => {
    expect(activeBetween(days()[0]!, days().at(-1)!)).toBeGreaterThan(1);
    expect(await points("activeAccounts")).toEqual(dayPoints((d) => activeBetween(d, d)));
    const firstDay = new Map<string, string>();
    for (const b of blocks) for (const a of b.active) if (!firstDay.has(a)) firstDay.set(a, b.day);
    const newOn = (d: string) => [...firstDay.values()].filter((x) => x === d).length;
    const upTo = (d: string) => [...firstDay.values()].filter((x) => x <= d).length;
    expect(await points("newAccounts")).toEqual(dayPoints(newOn));
    expect(await points("accountsGrowth")).toEqual(dayPoints(upTo));
    const counters = (await get("/stats/counters")).counters as { id: string; value: string }[];
    expect(counters.find((c) => c.id === "totalAccounts")?.value).toBe(String(firstDay.size));
  });

  it("activeAccounts by week, month and year: the distinct accounts of each period", async () => {
    const first = days()[0]!;
    // summed from the days' first accounts of the period; and with `from` the first day, which
    // cuts its period unless the period starts there (read from the activity of its days)
    for (const resolution of ["WEEK", "MONTH", "YEAR"])
      for (const q of [`resolution=${resolution}`, `resolution=${resolution}&from=${first}`]) {
        const got = await points(`activeAccounts?${q}`);
        expect(got.length).toBeGreaterThan(0);
        for (const [date, dateTo, value] of got)
          expect(value, `${q}: ${date}`).toBe(String(activeBetween(date!, dateTo!)));
      }
  });

  it("newNativeCoinTransfers and totalNativeCoinTransfers: bank sends and EVM value transfers that succeeded", async () => {
    const on = (d: string) =>
      blocks.filter((b) => b.day === d).reduce((s, b) => s + b.transfers, 0);
    const total = blocks.reduce((s, b) => s + b.transfers, 0);
    expect(total).toBeGreaterThan(0);
    expect(await points("newNativeCoinTransfers")).toEqual(dayPoints(on));
    const counters = (await get("/stats/counters")).counters as { id: string; value: string }[];
    expect(counters.find((c) => c.id === "totalNativeCoinTransfers")?.value).toBe(String(total));
  });

  it("nativeCoinHoldersGrowth, newNativeCoinHolders, totalNativeCoinHolders: the bank's holders at each day's end", async () => {
    expect(await points("nativeCoinHoldersGrowth")).toEqual(dayPoints((d) => holders.get(d)!));
    const growth = await points("newNativeCoinHolders");
    const ds = days();
    // the first day's change is from no holder the log touched before it
    expect(growth).toEqual(
      dayPoints(
        (d) => holders.get(d)! - (ds.indexOf(d) > 0 ? holders.get(ds[ds.indexOf(d) - 1]!)! : 0),
      ),
    );
    const counters = (await get("/stats/counters")).counters as { id: string; value: string }[];
    expect(counters.find((c) => c.id === "totalNativeCoinHolders")?.value).toBe(
      String(holders.get(ds.at(-1)!)),
    );
  });
});
