import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { endpoints, nodePorts } from "@explorer/infra";
import { openClickHouse } from "@explorer/store";
import { Contract, id, JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runProjector, startProjector, storeChecksums } from "../lib/projector-process.ts";
import { exited } from "../lib/spawn-ts.ts";

/**
 * Issue 4's acceptance. The projector replays the log that global setup ingested; then every
 * projected account, validator, holder and NFT is compared with what the node answers at the
 * same height, and transfer and holder counts with counts recomputed from the chain. Replaying
 * twice, and a run killed with SIGKILL five times, give the same tables as one clean replay.
 */
const scenario = inject("scenario");
const logDir = inject("logDir");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const storeA = `chdb:${mkdtempSync(join(tmpdir(), "proj-a-"))}`;
const output: string[] = [];
const env = (store: string, extra: Record<string, string> = {}) => ({
  LOG_DIR: logDir,
  STORE_URL: store,
  ...extra,
});
let cleanSums: Awaited<ReturnType<typeof storeChecksums>>;
let ch: ClickHouseClient;

const rows = async <T>(query: string): Promise<T[]> =>
  (await ch.query({ query, format: "JSONEachRow" })).json<T>();
const rest = async <T>(path: string, height: number): Promise<T> => {
  const r = await fetch(`${e.rest}${path}`, {
    headers: { "x-cosmos-block-height": String(height) },
  });
  return (await r.json()) as T;
};

beforeAll(async () => {
  expect(await runProjector(env(storeA), (l) => output.push(l)), output.join("")).toBe(0);
  cleanSums = await storeChecksums(storeA);
}, 300_000);

afterAll(async () => {
  await ch?.close();
});

describe("projector: replays change nothing", () => {
  it("replaying the whole log again into the same tables leaves every checksum as it was", async () => {
    expect(
      await runProjector(env(storeA, { FROM_START: "true" }), (l) => output.push(l)),
      output.join(""),
    ).toBe(0);
    expect(await storeChecksums(storeA)).toEqual(cleanSums);
    expect(Number(cleanSums.blocks!.rows)).toBe(scenario.toHeight);
  }, 300_000);

  it("a run killed with SIGKILL five times ends with the same tables as a clean run", async () => {
    const storeC = `chdb:${mkdtempSync(join(tmpdir(), "proj-c-"))}`;
    for (let kill = 0; kill < 5; kill++) {
      const child = startProjector(
        { FOLLOW: "false", BATCH_BLOCKS: "10", ...env(storeC) },
        [],
        (l) => output.push(l),
      );
      await new Promise((r) => setTimeout(r, 1200 + Math.random() * 1500));
      child.kill("SIGKILL");
      await exited(child);
    }
    expect(
      await runProjector(env(storeC, { BATCH_BLOCKS: "10" }), (l) => output.push(l)),
      output.join(""),
    ).toBe(0);
    expect(await storeChecksums(storeC)).toEqual(cleanSums);
  }, 300_000);
});

describe("projector: the tables say what the node says", () => {
  beforeAll(async () => {
    ch = await openClickHouse({ kind: "chdb", path: storeA.slice(5) });
  });

  it("every account: balances, delegations, redelegations, unbonding and rewards at its height", async () => {
    const accounts = await rows<{
      address: string;
      height: string;
      coins: string;
      delegations: string;
      unbonding_delegations: string;
      rewards: string;
    }>(
      "SELECT address, height, coins, delegations, unbonding_delegations, rewards FROM explorer_1.addresses FINAL",
    );
    expect(accounts.length).toBeGreaterThan(5);
    let delegating = 0;
    for (const a of accounts) {
      const h = Number(a.height);
      const bank = await rest<{ balances: unknown[] }>(
        `/cosmos/bank/v1beta1/balances/${a.address}`,
        h,
      );
      expect(JSON.parse(a.coins), `${a.address} balances at ${h}`).toEqual(bank.balances);
      const del = await rest<{ delegation_responses: unknown[] }>(
        `/cosmos/staking/v1beta1/delegations/${a.address}`,
        h,
      );
      expect(JSON.parse(a.delegations), `${a.address} delegations at ${h}`).toEqual(
        del.delegation_responses,
      );
      const unb = await rest<{ unbonding_responses: unknown[] }>(
        `/cosmos/staking/v1beta1/delegators/${a.address}/unbonding_delegations`,
        h,
      );
      expect(JSON.parse(a.unbonding_delegations), `${a.address} unbonding at ${h}`).toEqual(
        unb.unbonding_responses,
      );
      // Rewards are read for every account the block touched ('' only where the node would not
      // answer): an account that delegates has them, and they are the node's.
      if (JSON.parse(a.delegations).length > 0) {
        expect(a.rewards, `${a.address} delegates: rewards at ${h}`).not.toBe("");
        delegating++;
      }
      if (a.rewards) {
        const rw = await rest<unknown>(
          `/cosmos/distribution/v1beta1/delegators/${a.address}/rewards`,
          h,
        );
        expect(JSON.parse(a.rewards), `${a.address} rewards at ${h}`).toEqual(rw);
      }
    }
    expect(delegating).toBeGreaterThan(2);
  }, 120_000);

  it("every validator: the staking module's record at its height", async () => {
    const vals = await rows<{ operator_address: string; height: string; record: string }>(
      "SELECT operator_address, height, record FROM explorer_1.validators FINAL",
    );
    expect(vals.length).toBe(2);
    for (const v of vals) {
      const node = await rest<{ validator: unknown }>(
        `/cosmos/staking/v1beta1/validators/${v.operator_address}`,
        Number(v.height),
      );
      expect(JSON.parse(v.record)).toEqual(node.validator);
    }
  });

  it("every token holder: balanceOf at its height, the non-standard token included", async () => {
    const holders = await rows<{
      contract: string;
      holder: string;
      token_id: string;
      balance: string;
      height: string;
    }>(
      "SELECT contract, holder, token_id, toString(balance) AS balance, height FROM explorer_1.token_holders FINAL WHERE contract IN (SELECT address FROM explorer_1.contracts WHERE token_type != '')",
    );
    const fot = scenario.contracts.FeeToken!.toLowerCase();
    expect(holders.some((h) => h.contract === fot)).toBe(true);
    for (const h of holders) {
      const abi = h.token_id
        ? ["function balanceOf(address,uint256) view returns (uint256)"]
        : ["function balanceOf(address) view returns (uint256)"];
      const c = new Contract(h.contract, abi, provider);
      const args = h.token_id ? [h.holder, BigInt(h.token_id)] : [h.holder];
      const onChain: bigint = await c.getFunction("balanceOf")(...args, {
        blockTag: Number(h.height),
      });
      expect(h.balance, `${h.contract} ${h.holder} ${h.token_id}`).toBe(onChain.toString());
    }
  }, 120_000);

  it("every NFT: ownerOf at its height", async () => {
    const nfts = await rows<{ contract: string; token_id: string; owner: string; height: string }>(
      "SELECT contract, token_id, owner, height FROM explorer_1.token_inventory FINAL WHERE contract IN (SELECT address FROM explorer_1.contracts WHERE token_type = 'CFC-721')",
    );
    expect(nfts.length).toBeGreaterThanOrEqual(4);
    for (const n of nfts) {
      const c = new Contract(
        n.contract,
        ["function ownerOf(uint256) view returns (address)"],
        provider,
      );
      const owner: string = await c
        .getFunction("ownerOf")(BigInt(n.token_id), { blockTag: Number(n.height) })
        .catch(() => "");
      const normal =
        owner.toLowerCase() === "0x0000000000000000000000000000000000000000"
          ? ""
          : owner.toLowerCase();
      expect(n.owner, `${n.contract} #${n.token_id}`).toBe(normal);
    }
  });

  it("transfer and holder counts per token equal counts recomputed from the chain", async () => {
    const tokens = await rows<{ address: string; token_type: string }>(
      "SELECT address, token_type FROM explorer_1.contracts FINAL WHERE token_type != ''",
    );
    // the scenario's tokens of every standard (CFC-20, CFC-721, ERC-1155), the fee token among them
    expect(new Set(tokens.map((t) => t.token_type)).size).toBeGreaterThanOrEqual(3);
    const counts = new Map(
      (
        await rows<{ contract: string; n: string }>(
          "SELECT contract, toString(count()) AS n FROM explorer_1.token_transfers FINAL GROUP BY contract",
        )
      ).map((r) => [r.contract, Number(r.n)]),
    );
    const holderCounts = new Map(
      (
        await rows<{ contract: string; n: string }>(
          "SELECT contract, toString(uniqExact(holder)) AS n FROM explorer_1.token_holders FINAL WHERE balance > 0 GROUP BY contract",
        )
      ).map((r) => [r.contract, Number(r.n)]),
    );
    // the events' topics from their signatures, not from the code under test
    const transfer = id("Transfer(address,address,uint256)");
    const topics = { "CFC-20": transfer, "CFC-721": transfer } as Record<string, string>;
    const single = id("TransferSingle(address,address,address,uint256,uint256)");
    const batch = id("TransferBatch(address,address,address,uint256[],uint256[])");
    for (const t of tokens) {
      const logs = await provider.getLogs({
        address: t.address,
        fromBlock: 1,
        toBlock: scenario.toHeight,
        topics: [t.token_type === "ERC-1155" ? [single, batch] : topics[t.token_type]!],
      });
      const onChain = logs.reduce(
        (n, l) => n + (l.topics[0] === batch ? Number(BigInt(`0x${l.data.slice(130, 194)}`)) : 1),
        0,
      );
      expect(counts.get(t.address) ?? 0, `transfers of ${t.address}`).toBe(onChain);
      if (t.token_type === "CFC-20") {
        const candidates = new Set<string>();
        for (const l of logs)
          for (const topic of l.topics.slice(1, 3)) candidates.add(`0x${topic.slice(26)}`);
        const known = await rows<{ holder: string }>(
          `SELECT DISTINCT holder FROM explorer_1.token_holders WHERE contract = '${t.address}'`,
        );
        for (const k of known) candidates.add(k.holder);
        candidates.delete("0x0000000000000000000000000000000000000000");
        const c = new Contract(
          t.address,
          ["function balanceOf(address) view returns (uint256)"],
          provider,
        );
        let n = 0;
        for (const a of candidates)
          if ((await c.getFunction("balanceOf")(a, { blockTag: scenario.toHeight })) > 0n) n++;
        expect(holderCounts.get(t.address) ?? 0, `holders of ${t.address}`).toBe(n);
      }
    }
  }, 120_000);
});
