import { endpoints, nodePorts } from "@explorer/infra";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReader } from "../lib/api-node.ts";
import { cometGet, mapLimit } from "../lib/comet.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's Cosmos charts and counters: each day's point is what the node's bank, staking,
 * mint and distribution modules answer at the day's last height; the counters what they answer at
 * the last projected height. Not our tables.
 */
const e = endpoints(nodePorts(0));
const DENOM = "atest";

let store: ScenarioStore;
let api: string;
let top: number;
/** Each day's last height, in order. */
const lastOf = new Map<string, number>();
const { get } = apiReader(() => api);

/** A REST answer of the node at height `h`. */
const rest = async (path: string, h: number): Promise<any> => {
  const r = await fetch(`${e.rest}${path}`, { headers: { "x-cosmos-block-height": String(h) } });
  expect(r.status, path).toBe(200);
  return r.json();
};

/** A Cosmos decimal rounded half up to 6 decimals, trailing zeros left out (as the charts write it). */
const dec6 = (dec: string): string => {
  const [int = "0", frac = ""] = dec.split(".");
  const units = BigInt(int + frac.padEnd(18, "0").slice(0, 18));
  return ratio(units, 10n ** 18n);
};
/** num / den rounded half up to 6 decimals. */
const ratio = (num: bigint, den: bigint): string => {
  const scaled = (num * 2_000_000n + den) / (2n * den);
  const s = scaled.toString().padStart(7, "0");
  const frac = s.slice(-6).replace(/0+$/, "");
  return frac ? `${s.slice(0, -6)}.${frac}` : s.slice(0, -6);
};

/** What the node says at `h` of each level the charts draw. */
const nodeAt = async (h: number) => {
  const supply = BigInt(
    (await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=${DENOM}`, h)).amount.amount,
  );
  const bonded = BigInt((await rest("/cosmos/staking/v1beta1/pool", h)).pool.bonded_tokens);
  const pool = (await rest("/cosmos/distribution/v1beta1/community_pool", h)).pool as {
    denom: string;
    amount: string;
  }[];
  return {
    nativeCoinSupply: supply.toString(),
    bondedTokens: bonded.toString(),
    bondedRatio: ratio(bonded, supply),
    communityPool: dec6(pool.find((c) => c.denom === DENOM)?.amount ?? "0"),
    inflation: dec6((await rest("/cosmos/mint/v1beta1/inflation", h)).inflation),
  };
};

beforeAll(async () => {
  const s = await statsStore("stats-cosmos");
  ({ store, api, top } = s);
  const { heights } = s;
  const dayOf = new Map<number, string>();
  await mapLimit(heights, 8, async (h) => {
    const b = await cometGet(e.cometRpc, `/block?height=${h}`);
    dayOf.set(h, String(b.block.header.time).slice(0, 10));
  });
  for (const h of heights) lastOf.set(dayOf.get(h)!, h);
}, 300_000);

afterAll(async () => store?.close());

describe("Cosmos charts", () => {
  it("give each day the bank, staking, mint and distribution answers at its last height", async () => {
    const ids = [
      "nativeCoinSupply",
      "bondedTokens",
      "bondedRatio",
      "communityPool",
      "inflation",
    ] as const;
    const listed = (await get("/stats/lines")).sections.flatMap((s: any) =>
      s.charts.map((c: any) => c.id),
    );
    for (const id of ids) expect(listed, id).toContain(id);
    const want = new Map<string, Awaited<ReturnType<typeof nodeAt>>>();
    for (const [d, h] of lastOf) want.set(d, await nodeAt(h));
    for (const id of ids) {
      const points = (await get(`/stats/lines/${id}`)).chart as { date: string; value: string }[];
      expect(
        points.map((p) => [p.date, p.value]),
        id,
      ).toEqual([...want].map(([d, v]) => [d, v[id]]));
    }
    // a coarser resolution gives the period's last day's level
    const year = (await get("/stats/lines/bondedTokens?resolution=YEAR")).chart as {
      date: string;
      value: string;
    }[];
    expect(year.at(-1)?.value).toBe([...want.values()].at(-1)?.bondedTokens);
  });
});

describe("Cosmos counters", () => {
  it("are the node's answers at the last projected height", async () => {
    const counters = new Map(
      ((await get("/stats/counters")).counters as { id: string; value: string }[]).map((c) => [
        c.id,
        c.value,
      ]),
    );
    const at = await nodeAt(top);
    expect(counters.get("nativeCoinSupply")).toBe(at.nativeCoinSupply);
    expect(counters.get("bondedRatio")).toBe(at.bondedRatio);
    expect(counters.get("communityPool")).toBe(at.communityPool);
    expect(counters.get("inflation")).toBe(at.inflation);
    const bonded = await rest(
      "/cosmos/staking/v1beta1/validators?status=BOND_STATUS_BONDED&pagination.count_total=true",
      top,
    );
    expect(counters.get("activeValidators")).toBe(String(bonded.validators.length));
    expect(Number(bonded.pagination.total ?? bonded.validators.length)).toBe(
      bonded.validators.length,
    );
  });
});
