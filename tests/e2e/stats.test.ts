import { readFileSync } from "node:fs";
import { fromBase64 } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { TOPIC } from "@explorer/raw-block";
import { AuthInfo, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReader, transfersOf } from "../lib/api-node.ts";
import { cometGet, mapLimit } from "../lib/comet.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's "exact": after the scenario, every counter and chart of /stats equals what the node
 * itself says of the same heights: CometBFT's blocks and results, the transactions' own fees, the
 * EVM blocks and receipts (gas used × effective gas price), not our tables.
 */
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const DENOM = "atest";
const ETH_TX = "/cosmos.evm.vm.v1.MsgEthereumTx";

/** One block as the node gives it, reduced to what the charts count. */
interface NodeBlock {
  height: number;
  ms: number;
  day: string;
  gasUsed: bigint;
  gasLimit: bigint;
  size: bigint;
  txs: { evm: boolean; ok: boolean; messages: number; fee: bigint }[];
}

const readBlock = async (h: number): Promise<NodeBlock> => {
  const block = await cometGet(e.cometRpc, `/block?height=${h}`);
  const results = await cometGet(e.cometRpc, `/block_results?height=${h}`);
  const evm = await provider.send("eth_getBlockByNumber", [`0x${h.toString(16)}`, false]);
  const ms = Date.parse(block.block.header.time);
  const txs = await Promise.all(
    ((block.block.data.txs ?? []) as string[]).map(async (b64, i) => {
      const raw = TxRaw.decode(fromBase64(b64));
      const body = TxBody.decode(raw.bodyBytes);
      const r = results.txs_results[i] as { code: number; events: any[] };
      const isEvm = body.messages.some((m) => m.typeUrl === ETH_TX);
      // (the node writes an ethereum_tx event twice per EVM transaction: in the ante handler and the message)
      const hashes = new Set<string>(
        r.events
          .filter((ev) => ev.type === "ethereum_tx")
          .flatMap((ev) => ev.attributes.filter((a: any) => a.key === "ethereumTxHash"))
          .map((a: any) => a.value as string),
      );
      const receipts = await Promise.all(
        [...hashes].map((x) => provider.send("eth_getTransactionReceipt", [x])),
      );
      const offered = AuthInfo.decode(raw.authInfoBytes)
        .fee!.amount.filter((c) => c.denom === DENOM)
        .reduce((s, c) => s + BigInt(c.amount), 0n);
      return {
        evm: isEvm,
        ok: r.code === 0 && receipts.every((x) => x.status === "0x1"),
        messages: body.messages.length,
        fee: isEvm
          ? receipts.reduce((s, x) => s + BigInt(x.gasUsed) * BigInt(x.effectiveGasPrice), 0n)
          : offered,
      };
    }),
  );
  return {
    height: h,
    ms,
    day: new Date(ms).toISOString().slice(0, 10),
    gasUsed: BigInt(evm.gasUsed),
    gasLimit: BigInt(evm.gasLimit),
    size: BigInt(evm.size),
    txs,
  };
};

/** `value` (a decimal string, 6 decimals at most) is num / den rounded to 6 decimals. */
const expectRatio = (value: string, num: bigint, den: bigint, what: string) => {
  const [int, frac = ""] = value.split(".");
  expect(frac.length, what).toBeLessThanOrEqual(6);
  const scaled = BigInt(int! + frac.padEnd(6, "0"));
  const diff = scaled * den - num * 1_000_000n;
  expect(2n * (diff < 0n ? -diff : diff) <= den, `${what}: ${value} vs ${num}/${den}`).toBe(true);
};

let store: ScenarioStore;
let api: string;
let blocks: NodeBlock[];
/** Token transfer items by height, from the node's logs (eth_getLogs). */
const transfersAt = new Map<number, number>();
const { get } = apiReader(() => api);

beforeAll(async () => {
  const s = await statsStore("stats");
  ({ store, api } = s);
  const { heights, lowest, top } = s;
  blocks = await mapLimit(heights, 8, readBlock);
  const logs = await provider.getLogs({
    fromBlock: lowest,
    toBlock: top,
    topics: [[TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch]],
  });
  for (const l of logs) {
    const ok =
      l.topics[0] === TOPIC.transfer ? [3, 4].includes(l.topics.length) : l.topics.length === 4;
    if (ok)
      transfersAt.set(l.blockNumber, (transfersAt.get(l.blockNumber) ?? 0) + transfersOf(l).length);
  }
}, 300_000);

afterAll(async () => store?.close());

const sum = <T>(xs: readonly T[], f: (x: T) => bigint | number): bigint =>
  xs.reduce((s, x) => s + BigInt(f(x)), 0n);
const txsOf = (bs: readonly NodeBlock[]) => bs.flatMap((b) => b.txs);
const days = () => [...new Set(blocks.map((b) => b.day))].sort();
const onDay = (d: string) => blocks.filter((b) => b.day === d);
/** The sum of the block intervals ending in `bs` (a block's interval: since the one before it). */
const intervals = (bs: readonly NodeBlock[]) => {
  const i = blocks.indexOf(bs[0]!);
  const from = i === 0 ? bs[0]!.ms : blocks[i - 1]!.ms;
  return { ms: BigInt(bs.at(-1)!.ms - from), n: BigInt(i === 0 ? bs.length - 1 : bs.length) };
};

describe("/stats/counters", () => {
  it("answers each counter as the node's blocks, results and receipts give it", async () => {
    const { counters } = await get("/stats/counters");
    const by = Object.fromEntries(counters.map((c: any) => [c.id, c]));
    for (const c of counters) {
      expect(Object.keys(c).sort()).toEqual(["description", "id", "title", "units", "value"]);
      expect(c.value).toMatch(/^[0-9]+(\.[0-9]+)?$/);
    }
    const txs = txsOf(blocks);
    expect(by.totalBlocks.value).toBe(String(blocks.length));
    expect(by.totalTxns.value).toBe(String(txs.length));
    expect(by.completedTxns.value).toBe(String(txs.filter((t) => t.ok).length));
    const span = BigInt(blocks.at(-1)!.ms - blocks[0]!.ms);
    expectRatio(by.averageBlockTime.value, span, BigInt(blocks.length - 1) * 1000n, "block time");
    const recent = txsOf(blocks.filter((b) => b.ms > blocks.at(-1)!.ms - 86_400_000));
    expect(by.newTxns24h.value).toBe(String(recent.length));
    const fee = sum(recent, (t) => t.fee);
    expect(by.txnsFee24h.value).toBe(fee.toString());
    expectRatio(by.averageTxnFee24h.value, fee, BigInt(recent.length), "average fee");
    const yesterday = new Date(Date.parse(`${days().at(-1)}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(by.yesterdayTxns.value).toBe(String(txsOf(onDay(yesterday)).length));
    expect(Number(by.totalTxns.value)).toBeGreaterThan(0);
  });
});

describe("/stats/lines", () => {
  /** Per day: a count, or a ratio's numerator and denominator, as the node gives them. */
  const daily: Record<string, (bs: NodeBlock[]) => bigint | [bigint, bigint] | undefined> = {
    newTxns: (bs) => BigInt(txsOf(bs).length),
    newCosmosTxns: (bs) => BigInt(txsOf(bs).filter((t) => !t.evm).length),
    newEvmTxns: (bs) => BigInt(txsOf(bs).filter((t) => t.evm).length),
    newMessages: (bs) => sum(txsOf(bs), (t) => t.messages),
    txnsSuccessRate: (bs) => [
      BigInt(txsOf(bs).filter((t) => t.ok).length),
      BigInt(txsOf(bs).length),
    ],
    txnsFee: (bs) => sum(txsOf(bs), (t) => t.fee),
    averageTxnFee: (bs) => [sum(txsOf(bs), (t) => t.fee), BigInt(txsOf(bs).length)],
    newBlocks: (bs) => BigInt(bs.length),
    newTokenTransfers: (bs) => sum(bs, (b) => transfersAt.get(b.height) ?? 0),
    averageBlockTime: (bs) => {
      const { ms, n } = intervals(bs);
      return [ms, n * 1000n];
    },
    averageBlockSize: (bs) => [sum(bs, (b) => b.size), BigInt(bs.length)],
    averageGasUsed: (bs) => [sum(bs, (b) => b.gasUsed), BigInt(bs.length)],
    averageGasLimit: (bs) => [sum(bs, (b) => b.gasLimit), BigInt(bs.length)],
    gasUsedGrowth: (bs) => sum(blocks.slice(0, blocks.indexOf(bs.at(-1)!) + 1), (b) => b.gasUsed),
    networkUtilization: (bs) => [sum(bs, (b) => b.gasUsed) * 100n, sum(bs, (b) => b.gasLimit)],
  };

  it("lists only charts that answer, each with its Blockscout fields", async () => {
    const { sections } = await get("/stats/lines");
    const ids = sections.flatMap((s: any) => s.charts.map((c: any) => c.id));
    // and the scoped ones (stats-scoped.test.ts), the Cosmos (stats-cosmos) and contract ones (stats-contracts)
    const scoped = ["accountTxns", "accountBalance", "tokenTransfers", "tokenHolders"];
    scoped.push("validatorSignedBlocks", "validatorMissedBlocks", "validatorVotingPower");
    const cosmos = [
      "nativeCoinSupply",
      "bondedTokens",
      "bondedRatio",
      "communityPool",
      "inflation",
    ];
    cosmos.push("newContracts", "contractsGrowth");
    // tokens, verified contracts, validators and delegators (stats-types.test.ts, verify.test.ts)
    cosmos.push("newTokens", "newVerifiedContracts", "verifiedContractsGrowth");
    cosmos.push("activeValidators", "newDelegators");
    // the account and native coin ones (stats-accounts.test.ts)
    cosmos.push("activeAccounts", "newAccounts", "accountsGrowth", "newNativeCoinTransfers");
    cosmos.push("newNativeCoinHolders", "nativeCoinHoldersGrowth");
    expect(ids.sort()).toEqual([...Object.keys(daily), ...scoped, ...cosmos].sort());
    for (const s of sections)
      for (const c of s.charts) {
        expect(Object.keys(c).sort()).toEqual([
          "description",
          "id",
          "resolutions",
          "title",
          "units",
        ]);
        expect(c.resolutions).toEqual(["DAY", "WEEK", "MONTH", "YEAR"]);
      }
  });

  it("answers every chart by day as the node's blocks, results, receipts and logs give it", async () => {
    expect([...transfersAt.values()].length).toBeGreaterThan(0);
    for (const [id, of] of Object.entries(daily)) {
      const body = await get(`/stats/lines/${id}`);
      expect(body.info.id).toBe(id);
      const expected = days().flatMap((d) => {
        const v = of(onDay(d));
        return Array.isArray(v) && v[1] === 0n ? [] : [{ d, v }];
      });
      expect(
        body.chart.map((p: any) => p.date),
        id,
      ).toEqual(expected.map((x) => x.d));
      body.chart.forEach((p: any, i: number) => {
        const { d, v } = expected[i]!;
        expect(p.date_to).toBe(d);
        expect(p.is_approximate).toBe(false);
        if (Array.isArray(v)) expectRatio(p.value, v[0]!, v[1]!, `${id} ${d}`);
        else expect(p.value, `${id} ${d}`).toBe(String(v));
      });
    }
  });

  it("groups by week from Monday, month and year", async () => {
    const last = days().at(-1)!;
    const dow = (new Date(`${last}T00:00:00Z`).getUTCDay() + 6) % 7;
    const monday = new Date(Date.parse(`${last}T00:00:00Z`) - dow * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const week = await get("/stats/lines/newTxns?resolution=WEEK");
    const p = week.chart.at(-1);
    expect(p.date).toBe(monday);
    const inWeek = blocks.filter((b) => b.day >= monday);
    expect(p.value).toBe(String(txsOf(inWeek).length));
    const month = (await get("/stats/lines/newBlocks?resolution=month")).chart.at(-1);
    expect(month.date).toBe(`${last.slice(0, 7)}-01`);
    expect(month.value).toBe(
      String(blocks.filter((b) => b.day.startsWith(last.slice(0, 7))).length),
    );
    const year = (await get("/stats/lines/newBlocks?resolution=YEAR")).chart.at(-1);
    expect([year.date, year.date_to]).toEqual([
      `${last.slice(0, 4)}-01-01`,
      `${last.slice(0, 4)}-12-31`,
    ]);
  });

  it("bounds by from and to, and refuses what it cannot answer", async () => {
    const last = days().at(-1)!;
    const one = await get(`/stats/lines/newBlocks?from=${last}&to=${last}`);
    expect(one.chart).toEqual([
      { date: last, date_to: last, value: String(onDay(last).length), is_approximate: false },
    ]);
    for (const q of ["from=2026-02-30", "to=2026-1-01", "resolution=HOUR"]) {
      const r = await fetch(`${api}/stats/lines/newTxns?${q}`);
      expect(r.status, q).toBe(400);
      expect(Object.keys((await r.json()) as object)).toEqual(["error"]);
    }
    expect((await get(`/stats/lines/newBlocks?from=${last}&to=2000-01-01`)).chart).toEqual([]);
    const missing = await fetch(`${api}/stats/lines/noSuchChart`);
    expect(missing.status).toBe(404);
  });
});

describe("the stats service's own paths", () => {
  it("answer /api/v1/counters, /api/v1/lines and /api/v1/lines/{id} as /stats does", async () => {
    const root = api.replace(/\/api\/1\.0$/, "");
    for (const [v1, ours] of [
      ["/api/v1/counters", "/stats/counters"],
      ["/api/v1/lines", "/stats/lines"],
      ["/api/v1/lines/newTxns?resolution=WEEK", "/stats/lines/newTxns?resolution=WEEK"],
    ] as const) {
      const r = await fetch(`${root}${v1}`);
      expect(r.status, v1).toBe(200);
      expect(await r.json()).toEqual(await get(ours));
    }
    expect((await fetch(`${root}/api/v1/lines/noSuchChart`)).status).toBe(404);
  });
});

describe("sql/README.md's analytics example", () => {
  it("gives each day's transactions and fees as the node does", async () => {
    const md = readFileSync(new URL("../../sql/README.md", import.meta.url), "utf8");
    const sql = /### Analytics\n[\s\S]*?```sql\n([\s\S]*?)```/.exec(md)?.[1] ?? "";
    const rows = await (
      await store.ch.query({
        query: sql.trim().replace(/;$/, ""),
        format: "JSONEachRow",
        clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
      })
    ).json<{ day: string; txs: string; fee: string }>();
    expect(rows).toEqual(
      days().map((d) => ({
        day: d,
        txs: String(txsOf(onDay(d)).length),
        fee: sum(txsOf(onDay(d)), (t) => t.fee).toString(),
      })),
    );
  });
});
