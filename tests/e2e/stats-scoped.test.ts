import { readFileSync } from "node:fs";
import { fromBech32, toHex } from "@cosmjs/encoding";
import { keyFromMnemonic } from "@explorer/chain";
import { endpoints, nodePorts, testAccounts } from "@explorer/infra";
import { TOPIC } from "@explorer/raw-block";
import { Contract, JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader, transfersOf } from "../lib/api-node.ts";
import { cometGet, mapLimit, txsNaming } from "../lib/comet.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's scoped series: an account's, a token's and a validator's charts by day equal what the
 * node says of the same heights (balances at each day's last height, the Transfer logs, the
 * commits' signatures, staking at the height), not our tables.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos");
const ZERO = "0x0000000000000000000000000000000000000000";

let store: ScenarioStore;
let api: string;
let lowest: number;
let top: number;
/** Each height's UTC day of block time, and each day's last height, in order. */
const dayOf = new Map<number, string>();
const lastOf = new Map<string, number>();
/** Each height's commit (in the next block), as consensus address → signed. */
const commits = new Map<number, Map<string, boolean>>();
/** Consensus key → address, over every validator set seen. */
const byKey = new Map<string, string>();
const { get } = apiReader(() => api);
const days = () => [...lastOf.keys()];

/** A chart's points as [date, value] pairs. */
const chart = async (id: string, q: string) =>
  ((await get(`/stats/lines/${id}?${q}`)).chart as { date: string; value: string }[]).map(
    (p) => [p.date, p.value] as const,
  );
/** What `per(day)` gives each day from `from` on, as the chart writes it. */
const expected = async (from: string, per: (day: string) => Promise<bigint> | bigint) => {
  const out: (readonly [string, string])[] = [];
  for (const d of days().filter((x) => x >= from)) out.push([d, String(await per(d))]);
  return out;
};

beforeAll(async () => {
  const s = await statsStore("stats-scoped");
  ({ store, api, top, lowest } = s);
  const { heights } = s;
  await mapLimit(heights, 8, async (h) => {
    const b = await cometGet(e.cometRpc, `/block?height=${h}`);
    dayOf.set(h, String(b.block.header.time).slice(0, 10));
    if (h === lowest) return;
    // block h's last_commit signs h-1, in the order of h-1's validator set (an absent
    // validator's entry has no address)
    const set = (await cometGet(e.cometRpc, `/validators?height=${h - 1}&per_page=100`))
      .validators as { address: string; pub_key: { value: string } }[];
    for (const v of set) byKey.set(v.pub_key.value, v.address);
    const sigs = b.block.last_commit.signatures as { block_id_flag: number }[];
    commits.set(h - 1, new Map(sigs.map((s, i) => [set[i]!.address, s.block_id_flag === 2])));
  });
  for (const h of heights) lastOf.set(dayOf.get(h)!, h);
}, 300_000);

afterAll(async () => store?.close());

describe("?address=", () => {
  it("accountBalance: the node's balance at each day's last height, either form", async () => {
    const points = await chart("accountBalance", `address=${alice.bech32}`);
    expect(points.length).toBeGreaterThan(0);
    expect(await chart("accountBalance", `address=${alice.evm}`)).toEqual(points);
    // from the first day a block touched her to the last day
    const want = await expected(points[0]![0], async (d) =>
      BigInt(await provider.getBalance(alice.evm, lastOf.get(d)!)),
    );
    expect(points).toEqual(want);
    // sql/README.md's example: the same balance on each day a block touched her
    const md = readFileSync(new URL("../../sql/README.md", import.meta.url), "utf8");
    const sql = /```sql\n(-- An account's atest balance[\s\S]*?)```/.exec(md)?.[1] ?? "";
    const rows = await (
      await store.ch.query({
        query: sql.replace("cosmos1…", alice.bech32).trim().replace(/;$/, ""),
        format: "JSONEachRow",
        clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
      })
    ).json<{ day: string; balance: string }>();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([r.day, r.balance]).toEqual(points.find((p) => p[0] === r.day));
  });

  it("accountTxns: each day, the txs CometBFT's index names her in, and her transaction list's", async () => {
    const points = await chart("accountTxns", `address=${alice.evm}`);
    expect(points.map((p) => p[0])).toEqual(days());
    // CometBFT's event index: the txs in which she sent a message, or sent or received coins
    const named = await txsNaming(
      e.cometRpc,
      alice.bech32,
      `tx.height>=${lowest} AND tx.height<=${top}`,
    );
    expect(named.size).toBeGreaterThan(10);
    const listed = new Map<string, number>();
    for (let page = 1; ; page++) {
      const body = await get(`/txs?address=${alice.bech32}&limit=100&page=${page}`);
      for (const t of body.docs) listed.set(t.txhash, t.height);
      if (!body.hasNext) break;
    }
    const perDay = (m: Map<string, number>, d: string) =>
      [...m.values()].filter((h) => dayOf.get(h) === d).length;
    for (const [d, v] of points) {
      expect(Number(v), d).toBeGreaterThanOrEqual(perDay(named, d));
      expect(Number(v), d).toBe(perDay(listed, d));
    }
  });
});

describe("?contractAddress=", () => {
  /** The node's transfers of a token (Transfer, TransferSingle, TransferBatch items), with heights. */
  const nodeTransfers = async (contract: string) =>
    (
      await provider.getLogs({
        address: contract,
        fromBlock: lowest,
        toBlock: top,
        topics: [[TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch]],
      })
    ).flatMap((l) => transfersOf(l).map((t) => ({ ...t, height: l.blockNumber })));

  it("tokenTransfers: the node's Transfer logs per day, every token standard", async () => {
    for (const name of ["TestToken", "FeeToken", "TestNFT", "TestMulti"]) {
      const contract = scenario.contracts[name]!.toLowerCase();
      const node = await nodeTransfers(contract);
      expect(node.length, name).toBeGreaterThan(0);
      const points = await chart("tokenTransfers", `contractAddress=${contract}`);
      expect(points, name).toEqual(
        await expected(days()[0]!, (d) =>
          BigInt(node.filter((t) => dayOf.get(t.height) === d).length),
        ),
      );
    }
  });

  it("tokenHolders: accounts with a positive balanceOf at each day's last height", async () => {
    const erc20 = ["function balanceOf(address) view returns (uint256)"];
    for (const name of ["TestToken", "TestNFT"]) {
      const contract = scenario.contracts[name]!.toLowerCase();
      const token = new Contract(contract, erc20, provider);
      const node = await nodeTransfers(contract);
      const accounts = [...new Set(node.flatMap((t) => [t.from, t.to]))].filter((a) => a !== ZERO);
      const points = await chart("tokenHolders", `contractAddress=${contract}`);
      const want = await expected(days()[0]!, async (d) => {
        const at = lastOf.get(d)!;
        const held = await Promise.all(
          accounts.map(async (a) => BigInt(await token.balanceOf!(a, { blockTag: at })) > 0n),
        );
        return BigInt(held.filter(Boolean).length);
      });
      expect(points, name).toEqual(want);
      expect(Number(points.at(-1)![1]), name).toBeGreaterThan(0);
    }
  });
});

describe("?validator=", () => {
  it("validatorSignedBlocks and validatorMissedBlocks: the commits' signatures per day", async () => {
    const vals = (await get("/validators")).docs as any[];
    expect(vals.length).toBe(2);
    let missed = 0;
    for (const v of vals) {
      const op = v.validator.operator_address as string;
      const cons = byKey.get(v.validator.consensus_pubkey.key)!;
      expect(cons, op).toBeDefined();
      const count = (d: string, signed: boolean) =>
        BigInt(
          [...commits].filter(([h, c]) => dayOf.get(h) === d && c.get(cons) === signed).length,
        );
      const signed = await chart("validatorSignedBlocks", `validator=${op}`);
      expect(signed, op).toEqual(await expected(days()[0]!, (d) => count(d, true)));
      const miss = await chart("validatorMissedBlocks", `validator=${op}`);
      expect(miss, op).toEqual(await expected(days()[0]!, (d) => count(d, false)));
      missed += miss.reduce((s, p) => s + Number(p[1]), 0);
      // named by its operator's account (0x): the same validator
      const account = `0x${toHex(fromBech32(op).data)}`;
      expect(await chart("validatorSignedBlocks", `validator=${account}`)).toEqual(signed);
    }
    expect(missed).toBeGreaterThan(0); // val1 missed blocks when its node stopped
  });

  it("validatorVotingPower: its tokens at each day's last height while bonded, 0 otherwise", async () => {
    for (const v of (await get("/validators")).docs as any[]) {
      const op = v.validator.operator_address as string;
      const points = await chart("validatorVotingPower", `validator=${op}`);
      expect(points.length, op).toBeGreaterThan(0);
      const want = await expected(points[0]![0], async (d) => {
        const r = await fetch(`${e.rest}/cosmos/staking/v1beta1/validators/${op}`, {
          headers: { "x-cosmos-block-height": String(lastOf.get(d)!) },
        });
        const node = ((await r.json()) as any).validator;
        return node.status === "BOND_STATUS_BONDED" ? BigInt(node.tokens) : 0n;
      });
      expect(points, op).toEqual(want);
    }
  });
});

describe("scope parameters", () => {
  it("refuse a scope a chart does not take, a missing one and a malformed one, with 400 {error}", async () => {
    const op = (await get("/validators")).docs[0].validator.operator_address;
    const token = scenario.contracts.TestToken!;
    for (const [q, names] of [
      [`newTxns?address=${alice.evm}`, "address"],
      [`newTokenTransfers?contractAddress=${token}`, "contractAddress"],
      [`newBlocks?validator=${op}`, "validator"],
      [`accountTxns?address=${alice.evm}&validator=${op}`, "validator"],
      ["accountBalance", "address"],
      ["tokenHolders", "contractAddress"],
      ["validatorVotingPower", "validator"],
      ["accountTxns?address=0x1234", "address"],
      ["tokenTransfers?contractAddress=nope", "contractAddress"],
      ["validatorSignedBlocks?validator=cosmosvaloper1xyz", "validator"],
    ] as const) {
      const r = await fetch(`${api}/stats/lines/${q}`);
      expect(r.status, q).toBe(400);
      const body = (await r.json()) as { error: string };
      expect(Object.keys(body), q).toEqual(["error"]);
      expect(body.error, q).toContain(names);
    }
    expect((await fetch(`${api}/stats/lines/noSuchChart?address=${alice.evm}`)).status).toBe(404);
  });
});
