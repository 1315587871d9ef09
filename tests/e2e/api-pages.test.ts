import { toBech32 } from "@cosmjs/encoding";
import { keyFromMnemonic } from "@explorer/chain";
import { testAccounts } from "@explorer/infra";
import { NOTHING_PROJECTED } from "@explorer/projector";
import { ensureCurrentSet } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * Lists filtered through an index (`/txs?address=`, `/token-transfers?address=`,
 * `/event-logs?contractAddress=`) cut their pages from the index itself (apps/api/src/http/
 * lookup-page.ts). Over the scenario's log projected once, and again into a second table set
 * replayed a second time with merges stopped (so every index entry is there twice), every page,
 * both ways, is the same, and the pages together hold each record once.
 */
const scenario = inject("scenario");
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos");
let store: ScenarioStore;
const bases: Record<"once" | "twice", string> = { once: "", twice: "" };
const duplicated: Record<string, number> = {};
/** Rows of a query on the once-projected set (`{db}`), read from the tables with FINAL. */
let count: (sql: string) => Promise<number>;
/** Runs a statement on the once-projected set (`{db}`). */
let command: (sql: string) => Promise<void>;

beforeAll(async () => {
  store = await scenarioStore("api-pages", inject("logDir"));
  const { ch } = store;
  const once = await ensureCurrentSet(ch, "once");
  await store.project(once.db);
  const twice = await ensureCurrentSet(ch, "twice");
  await store.project(twice.db);
  const lookups = ["tx_lookup", "log_lookup", "transfer_lookup"];
  for (const t of lookups) await ch.command({ query: `SYSTEM STOP MERGES ${twice.db}.${t}` });
  await store.project(twice.db, { from: NOTHING_PROJECTED });
  for (const t of lookups) {
    const rs = await ch.query({
      query: `SELECT (SELECT count() FROM ${twice.db}.${t}) - (SELECT count() FROM ${twice.db}.${t} FINAL) AS n`,
      format: "JSONEachRow",
    });
    duplicated[t] = Number((await rs.json<{ n: string }>())[0]?.n);
  }
  command = async (sql) => {
    await ch.command({ query: sql.replaceAll("{db}", once.db) });
  };
  count = async (sql) => {
    const rs = await ch.query({ query: sql.replaceAll("{db}", once.db), format: "JSONEachRow" });
    return Number((await rs.json<{ n: string }>())[0]?.n);
  };
  for (const name of ["once", "twice"] as const) bases[name] = await store.api(name);
}, 300_000);

afterAll(async () => store?.close());

/** Every page of a list at `limit` a page, until hasNext is false. */
const walk = async (base: string, path: string, limit: number) => {
  const pages: { docs: unknown[]; hasNext: boolean }[] = [];
  for (let page = 1; page <= 500; page++) {
    const r = await fetch(`${base}${path}&limit=${limit}&page=${page}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { docs: unknown[]; hasNext: boolean };
    pages.push(body);
    if (!body.hasNext) return pages;
  }
  throw new Error(`${path}: more than 500 pages`);
};

describe("pages cut from an index", () => {
  it("the replayed table set really holds every index entry twice", () => {
    for (const t of ["tx_lookup", "log_lookup", "transfer_lookup"])
      expect(duplicated[t], t).toBeGreaterThan(0);
  });

  const evm = alice.evm.toLowerCase();
  const token = scenario.contracts.TestToken!.toLowerCase();
  const txs = `/txs?address=${alice.bech32}`;
  const transfers = `/token-transfers?address=${evm}`;
  const logs = `/event-logs?contractAddress=${token}`;
  // Each list, a sort, a record's identity, and its rows counted in the table itself (FINAL).
  const lists: [string, string, (d: any) => string, string][] = [];
  for (const [path, field, id, sql] of [
    [
      txs,
      "height",
      (d: any) => d.txhash,
      `SELECT count() AS n FROM {db}.txs FINAL WHERE has(addresses, '${evm}')`,
    ],
    [
      transfers,
      "blockNumber",
      (d: any) => d.uniqueHash,
      `SELECT count() AS n FROM {db}.token_transfers FINAL WHERE from_address = '${evm}' OR to_address = '${evm}'`,
    ],
    [
      logs,
      "blockNumber",
      (d: any) => `${d.transactionHash}/${d.logIndex}`,
      `SELECT count() AS n FROM {db}.event_logs FINAL WHERE contract = '${token}'`,
    ],
  ] as const)
    for (const sort of [`-${field}`, field]) lists.push([path, sort, id, sql]);

  it.each(lists)(
    "%s sorted %s: the same pages after a replay, each record once, all of them",
    async (path, sort, id, sql) => {
      const once = await walk(bases.once, `${path}&sort=${sort}`, 2);
      const twice = await walk(bases.twice, `${path}&sort=${sort}`, 2);
      expect(twice).toEqual(once);
      const docs = once.flatMap((p) => p.docs);
      expect(docs.length).toBeGreaterThan(2);
      expect(new Set(docs.map(id)).size).toBe(docs.length);
      expect(docs.length).toBe(await count(sql));
    },
  );
});

describe("pages without a filter, and deep pages", () => {
  it.each(["-height", "height"])(
    "/txs sorted %s: each page found through the blocks' tx counts; together every tx once",
    async (sort) => {
      const once = await walk(bases.once, `/txs?sort=${sort}`, 5);
      const twice = await walk(bases.twice, `/txs?sort=${sort}`, 5);
      expect(twice).toEqual(once);
      const ids = once.flatMap((p) => p.docs).map((d: any) => `${d.height}/${d.txhash}`);
      expect(once.length).toBeGreaterThan(3);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(await count("SELECT count() AS n FROM {db}.txs FINAL"));
      const heights = ids.map((i) => Number(i.split("/")[0]));
      const ordered = [...heights].sort((a, b) => (sort === "height" ? a - b : b - a));
      expect(heights).toEqual(ordered);
    },
  );

  it("oldest first is newest first reversed", async () => {
    const ids = async (sort: string) =>
      (await walk(bases.once, `/txs?sort=${sort}`, 5)).flatMap((p) =>
        p.docs.map((d: any) => d.txhash),
      );
    expect(await ids("height")).toEqual((await ids("-height")).reverse());
  });

  it("a page more than 100,000 rows in: empty without a filter (a seek), else a 400", async () => {
    const evm = alice.evm.toLowerCase();
    const token = scenario.contracts.TestToken!.toLowerCase();
    const deep = "limit=10&page=10002";
    for (const path of [`/txs?sort=height&${deep}`, `/txs?${deep}`, `/blocks?${deep}`]) {
      const r = await fetch(`${bases.once}${path}`);
      expect(r.status, path).toBe(200);
      expect(await r.json(), path).toMatchObject({ docs: [], hasNext: false, page: 10002 });
    }
    // Pages cut from an index walk its entries up to the page, as an OFFSET reads its rows.
    for (const path of [
      `/txs?address=${alice.bech32}&${deep}`,
      `/txs?address=${alice.bech32}&existsEVM=true&${deep}`,
      `/token-transfers?address=${evm}&${deep}`,
      `/event-logs?contractAddress=${token}&${deep}`,
      `/event-logs?contractAddress=${token}&blockNumber=5&${deep}`,
      `/addresses?${deep}`,
    ]) {
      const r = await fetch(`${bases.once}${path}`);
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: string }).error, path).toMatch(/too deep/);
    }
  });
});

describe("inventory holds NFTs only", () => {
  it("an inventory row of a contract that is not a token is neither listed nor answered", async () => {
    // What a contract that only looked like an NFT leaves (sql/README.md): a row in
    // token_inventory while its contract has no token type.
    const factory = scenario.contracts.Factory!.toLowerCase();
    expect(
      await count(
        `SELECT count() AS n FROM {db}.contracts FINAL WHERE address = '${factory}' AND token_type = ''`,
      ),
    ).toBe(1);
    await command(
      `INSERT INTO {db}.token_inventory VALUES ('${factory}', '7', '${alice.evm.toLowerCase()}', '', 1, now64(3))`,
    );
    const item = await fetch(`${bases.once}/token-inventory/${factory}/7`);
    expect(item.status).toBe(404);
    const list = (await (
      await fetch(`${bases.once}/token-inventory?contractAddress=${factory}`)
    ).json()) as {
      docs: unknown[];
    };
    expect(list.docs).toEqual([]);
  });
});

describe("validators the chain removed", () => {
  it("are neither listed, nor answered, nor counted", async () => {
    // What a validator the chain removed leaves: its last row, older than the last reading of the
    // whole set (which wrote a row for every validator still there).
    const removed = toBech32("cosmosvaloper", new Uint8Array(20).fill(7));
    const account = toBech32("cosmos", new Uint8Array(20).fill(7));
    const record = JSON.stringify({
      operator_address: removed,
      status: "BOND_STATUS_UNBONDED",
      jailed: false,
      tokens: "0",
    });
    await command(
      `INSERT INTO {db}.validators VALUES ('${removed}', '${"07".repeat(20).toUpperCase()}', '${account}', 1, 0, 'BOND_STATUS_UNBONDED', 0, '${record}')`,
    );
    const json = async (path: string) =>
      (await fetch(`${bases.once}${path}`)).json() as Promise<any>;
    const listed = (await json("/validators?limit=100")).docs.map(
      (v: any) => v.validator.operator_address,
    );
    expect(listed).toHaveLength(2); // the scenario's two
    expect(listed).not.toContain(removed);
    expect((await fetch(`${bases.once}/validators/${removed}`)).status).toBe(404);
    expect((await json("/stat")).totalValidators).toBe(2);
  });
});
