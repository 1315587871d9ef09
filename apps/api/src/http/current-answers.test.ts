import type { AddressInfo } from "node:net";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { buildApi } from "../main.ts";
import { keptAnswersApi, key } from "./kept-answers.fixtures.ts";

/**
 * Kept answers are never stale: what they show (a proposer's description, a validator's
 * signatures) is as of the projected height, and a failure is shared, never kept.
 */
const { ch, db, app, apiDb, base, project } = await keptAnswersApi();

describe("kept answers", () => {
  it("of a block show its proposer's description as it is now", async () => {
    await ch.insert({
      table: `${db}.block_records`,
      values: [{ key: "000000000004", proposer_cons: "AB12", record: '{"height":4}' }],
      format: "JSONEachRow",
    });
    const validator = (height: number, moniker: string) =>
      ch.insert({
        table: `${db}.validators`,
        values: [
          {
            operator_address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
            cons_address: "AB12",
            account: "cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du",
            height,
            jailed: 0,
            status: "BOND_STATUS_BONDED",
            tokens: "1",
            record: JSON.stringify({ description: { moniker } }),
          },
        ],
        format: "JSONEachRow",
      });
    const proposer = async () => {
      const r = await fetch(`${base}/blocks/4`, { headers: key });
      return ((await r.json()) as { proposer: unknown }).proposer;
    };
    await validator(9, "first");
    await project(10, 96);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "first" },
    });
    await proposer(); // asked a second time: kept from now on (answers.ts)
    const hits = app.answerCache.hits;
    await proposer();
    expect(app.answerCache.hits).toBe(hits + 1); // kept while nothing changes
    // the validator edits its description at the next height: its row is written (with the rest
    // of that batch) before the projected height moves, and the answer follows it at once, then
    // stays so (kept under the new descriptions, not under the map read before them)
    await validator(11, "renamed");
    await Effect.runPromise(apiDb.refresh);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "renamed" },
    });
    await project(11, 97);
    expect(await proposer()).toEqual({
      address: "cosmosvaloper1qyqszqgpqyqszqgpqyqszqgpqyqszqgph84tp0",
      description: { moniker: "renamed" },
    });
  });

  it("count a validator's signatures up to the projected height, none for one never in a commit", async () => {
    await ch.insert({
      table: `${db}.validators`,
      values: [
        {
          operator_address: "cosmosvaloper1qgpqyqszqgpqyqszqgpqyqszqgpqyqszxrnw2e",
          cons_address: "CD34",
          account: "cosmos1qgpqyqszqgpqyqszqgpqyqszqgpqyqszrh8mx2",
          height: 11,
          jailed: 0,
          status: "BOND_STATUS_UNBONDED",
          tokens: "0",
          record: JSON.stringify({ description: { moniker: "never" } }),
        },
      ],
      format: "JSONEachRow",
    });
    // AB12 signed 5, missed 6; 12 is a batch being written (projected up to 11)
    await ch.insert({
      table: `${db}.validator_signatures`,
      values: [5, 6, 12].map((height) => ({
        cons_address: "AB12",
        height,
        signed: +(height !== 6),
      })),
      format: "JSONEachRow",
    });
    const r = await fetch(`${base}/validators?sort=operator_address`, { headers: key });
    const counts = ((await r.json()) as { docs: Record<string, unknown>[] }).docs.map((v) => [
      (v.validator as { mxAddress: string }).mxAddress,
      v.signedBlocks,
      v.unsignedBlocks,
    ]);
    expect(counts).toEqual([
      ["cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du", 1, 1],
      ["cosmos1qgpqyqszqgpqyqszqgpqyqszqgpqyqszrh8mx2", 0, 0],
    ]);
  });

  it("share a failure among the requests that waited on it, computed once, and do not keep it", async () => {
    // The store as the API sees it, every lookup by hash counted, and the first held back until
    // all five requests below have arrived.
    let lookups = 0;
    let arrived = 0;
    const counted = new Proxy(ch, {
      get: (target, name) => {
        const value = Reflect.get(target, name, target);
        if (name !== "query") return typeof value === "function" ? value.bind(target) : value;
        return async (p: Parameters<typeof ch.query>[0]) => {
          if (p.query.includes("tx_hash")) {
            lookups++;
            for (let waited = 0; arrived < 5 && waited < 10_000; waited += 10)
              await new Promise((r) => setTimeout(r, 10));
          }
          return target.query(p);
        };
      },
    });
    const other = buildApi(counted, "explorer", {
      prefix: "cosmos",
      nativeCoins: new Map(),
      rateLimitPerMinute: 1000,
      apiKeys: new Map(),
    });
    const s = other.app.listen(0, "127.0.0.1");
    s.on("request", () => {
      arrived++;
    });
    await new Promise((r) => s.once("listening", r));
    try {
      const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/1.0/txs/${"AB".repeat(32)}`;
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(url)));
      expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
      expect(new Set(await Promise.all(answers.map((r) => r.text()))).size).toBe(1);
      expect(lookups).toBe(1);
      expect((await fetch(url)).status).toBe(404); // asked again later: looked up again
      expect(lookups).toBe(2);
    } finally {
      await new Promise((r) => s.close(r));
      await other.runtime.dispose();
    }
  });
});
