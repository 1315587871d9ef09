import { readFileSync } from "node:fs";
import { keyFromMnemonic } from "@explorer/chain";
import { endpoints, nodePorts, testAccounts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { TOPIC } from "@explorer/raw-block";
import { Contract, JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readChainTxs } from "../lib/comet.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * Issue 4's "document every table … example queries": every example of sql/README.md, as written
 * there (only its placeholders filled), run on the embedded engine over the scenario's log through
 * the `explorer.<table>` views, and through /api/1.0/sql (the same rows), answers what the node holds (CometBFT blocks and tx results, bank,
 * distribution, eth_call, eth_getLogs) or, where the API's own e2e tests check that against the
 * node, what the API answers.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos");

interface Example {
  readonly title: string;
  readonly sql: string;
}

/** The README's examples: each is its comment lines, then one statement ending in `;`. */
const readmeExamples = (): Example[] => {
  const md = readFileSync(new URL("../../sql/README.md", import.meta.url), "utf8");
  const block = /## Examples\n[\s\S]*?```sql\n([\s\S]*?)```/.exec(md)?.[1] ?? "";
  const out: Example[] = [];
  let title: string[] = [];
  let sql: string[] = [];
  for (const line of block.split("\n")) {
    if (sql.length === 0 && line.startsWith("--")) title.push(line.slice(2).trim());
    else if (line.trim()) sql.push(line);
    if (sql.length > 0 && line.trimEnd().endsWith(";")) {
      out.push({ title: title.join(" "), sql: sql.join("\n").trimEnd().slice(0, -1) });
      title = [];
      sql = [];
    }
  }
  return out;
};

let store: ScenarioStore;
let api: string;
let top: number;

/** Rows as JSON, integers of 64 bits and more quoted (chDB's default writes them as numbers). */
const rows = async <T = Record<string, any>>(sql: string): Promise<T[]> =>
  (
    await store.ch.query({
      query: sql,
      format: "JSONEachRow",
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    })
  ).json<T>();
const get = async (path: string) => (await fetch(`${api}${path}`)).json() as Promise<any>;
const comet = async (path: string) =>
  ((await (await fetch(`${e.cometRpc}${path}`)).json()) as { result: any }).result;
const atHeight = async (path: string) =>
  (
    await fetch(`${e.rest}${path}`, { headers: { "x-cosmos-block-height": String(top) } })
  ).json() as Promise<any>;
const example = (start: string): string => {
  const found = readmeExamples().filter((x) => x.title.startsWith(start));
  expect(found.map((x) => x.title)).toHaveLength(1);
  return found[0]!.sql;
};
const token = () => scenario.contracts.TestToken!.toLowerCase();

beforeAll(async () => {
  store = await scenarioStore("sql-examples", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  const [progress] = await rows<{ top: string }>(
    "SELECT height AS top FROM explorer.progress WHERE name = 'projector'",
  );
  top = Number(progress?.top);
  expect(top).toBe(scenario.toHeight);
}, 300_000);

afterAll(async () => store?.close());

/** One checker per example, by the start of its comment; none left over either way. */
const checked = [
  "Transactions per day",
  "The latest 10 transactions of an account",
  "Rich list of the native coin",
  "Holders of a token",
  "Transfer and holder counts of every token",
  "Uptime",
  "Commission not yet withdrawn",
  "Logs of a contract",
];

describe("sql/README.md's examples", () => {
  it("each has a check here, and each runs", async () => {
    const examples = readmeExamples();
    expect(examples.length).toBe(checked.length);
    for (const x of examples) {
      expect(
        checked.filter((c) => x.title.startsWith(c)),
        x.title,
      ).toHaveLength(1);
      const sql = x.sql.replaceAll("cosmos1…", alice.bech32).replaceAll("0x…", token());
      await expect(rows(sql), x.title).resolves.toBeInstanceOf(Array);
    }
  });

  it("each answers the same through /api/1.0/sql as on the store (so the checks below hold there too)", async () => {
    for (const x of readmeExamples()) {
      const sql = x.sql.replaceAll("cosmos1…", alice.bech32).replaceAll("0x…", token());
      const r = await fetch(`${api}/sql`, { method: "POST", body: sql });
      const answer = (await r.json()) as { data?: unknown[]; error?: string };
      expect([r.status, answer.error], x.title).toEqual([200, undefined]);
      expect(answer.data, x.title).toEqual(await rows(sql));
      const csv = await fetch(`${api}/sql?format=csv&query=${encodeURIComponent(sql)}`);
      expect((await csv.text()).split("\n").length, x.title).toBe((answer.data?.length ?? 0) + 2);
    }
  });

  it("transactions per day and failures: the node's blocks and tx results", async () => {
    const got = await rows<{ day: string; txs: string; failed: string }>(
      example("Transactions per day"),
    );
    const days = new Map<string, { txs: number; failed: number }>();
    const dayOf = new Map<number, string>();
    for (let from = 1; from <= top; from += 20) {
      const r = await comet(`/blockchain?minHeight=${from}&maxHeight=${Math.min(from + 19, top)}`);
      for (const m of r.block_metas) {
        const day = new Date(m.header.time).toISOString().slice(0, 10);
        dayOf.set(Number(m.header.height), day);
        const d = days.get(day) ?? { txs: 0, failed: 0 };
        d.txs += Number(m.num_txs);
        days.set(day, d);
      }
    }
    // Failed: a Cosmos failure (code ≠ 0), or an EVM call the node recorded as reverted.
    for (const t of await readChainTxs(e.cometRpc, 1, top))
      if (
        t.code !== 0 ||
        t.events.some((ev) => ev.attributes.some((a) => a.key === "ethereumTxFailed"))
      )
        days.get(dayOf.get(t.height)!)!.failed++;
    const node = [...days].filter(([, d]) => d.txs > 0);
    expect(got.map((r) => [r.day, { txs: Number(r.txs), failed: Number(r.failed) }])).toEqual(
      node.sort(([a], [b]) => a.localeCompare(b)),
    );
    expect(node.reduce((n, [, d]) => n + d.failed, 0)).toBeGreaterThan(0);
  });

  it("an account's latest transactions, by either address form: the API's `/txs?address=`", async () => {
    const sql = example("The latest 10 transactions of an account");
    const byBech32 = await rows<{ height: string; txhash: string }>(
      sql.replaceAll("cosmos1…", alice.bech32),
    );
    const byEvm = await rows(sql.replaceAll("cosmos1…", alice.evm.toLowerCase()));
    const listed = (await get(`/txs?address=${alice.bech32}&limit=10`)).docs;
    expect(byBech32.length).toBe(10);
    expect(byBech32.map((r) => [Number(r.height), r.txhash])).toEqual(
      listed.map((t: any) => [t.height, t.txhash]),
    );
    expect(byEvm).toEqual(byBech32);
  });

  it("the rich list: the node's bank balances, in the API's order", async () => {
    const got = await rows<{ address: string; amount: string }>(
      example("Rich list of the native coin"),
    );
    expect(got.length).toBeGreaterThan(3);
    for (const r of got) {
      const bank = await atHeight(
        `/cosmos/bank/v1beta1/balances/${r.address}/by_denom?denom=atest`,
      );
      expect(r.amount, r.address).toBe(bank.balance.amount);
    }
    const listed = (await get(`/addresses/rich-list/test?limit=${got.length}`)).docs;
    expect(got.map((r) => r.address)).toEqual(listed.map((a: any) => a.mx));
  });

  it("a token's holders: its own balanceOf at the projected height", async () => {
    const sql = example("Holders of a token");
    for (const name of ["TestToken", "FeeToken"]) {
      const address = scenario.contracts[name]!.toLowerCase();
      const got = await rows<{ holder: string; token_id: string; balance: string }>(
        sql.replaceAll("0x…", address),
      );
      expect(got.length, name).toBeGreaterThan(1);
      const c = new Contract(
        address,
        ["function balanceOf(address) view returns (uint256)"],
        provider,
      );
      for (const h of got)
        expect(h.balance, `${name} ${h.holder}`).toBe(
          String(await c.getFunction("balanceOf")(h.holder, { blockTag: top })),
        );
      const amounts = got.map((h) => BigInt(h.balance));
      expect(amounts).toEqual([...amounts].sort((x, y) => (y > x ? 1 : y < x ? -1 : 0)));
    }
  });

  it("transfer and holder counts: the node's Transfer logs, and the API's counts", async () => {
    const got = await rows<{
      address: string;
      token_type: string;
      transfers: string;
      holders: string;
    }>(example("Transfer and holder counts of every token"));
    expect(new Set(got.map((t) => t.token_type))).toEqual(
      new Set(["CFC-20", "CFC-721", "ERC-1155"]),
    );
    for (const t of got) {
      const record = await get(`/tokens/${t.address}`);
      expect([Number(t.transfers), Number(t.holders)], t.address).toEqual([
        record.transferCount,
        record.holderCount,
      ]);
      if (t.token_type !== "ERC-1155") {
        const logs = await provider.getLogs({
          address: t.address,
          topics: [TOPIC.transfer],
          fromBlock: 1,
          toBlock: top,
        });
        expect(Number(t.transfers), t.address).toBe(logs.length);
      }
    }
  });

  it("uptime: the API's signed and missed blocks", async () => {
    const got = await rows<{ operator_address: string; signed: string; missed: string }>(
      example("Uptime"),
    );
    const validators = (await get("/validators?limit=100")).docs;
    expect(got.length).toBe(validators.length);
    for (const v of validators) {
      const r = got.find((x) => x.operator_address === v.validator.operator_address);
      expect([Number(r?.signed), Number(r?.missed)], v.validator.operator_address).toEqual([
        v.signedBlocks,
        v.unsignedBlocks,
      ]);
    }
  });

  it("commission not yet withdrawn: the node's, in 10^-18 units", async () => {
    const got = await rows<{ operator_address: string; denom: string; units: string }>(
      example("Commission not yet withdrawn"),
    );
    const node: [string, string, string][] = [];
    for (const v of (await get("/validators?limit=100")).docs) {
      const op = v.validator.operator_address;
      const r = await atHeight(`/cosmos/distribution/v1beta1/validators/${op}/commission`);
      for (const c of r.commission.commission as { denom: string; amount: string }[]) {
        const [whole, frac = ""] = c.amount.split(".");
        node.push([op, c.denom, String(BigInt(whole! + frac.padEnd(18, "0")))]);
      }
    }
    expect(node.length).toBeGreaterThan(0);
    const key = (r: readonly string[]) => r.join(" ");
    expect(got.map((r) => key([r.operator_address, r.denom, r.units])).sort()).toEqual(
      node.map(key).sort(),
    );
  });

  it("a contract's logs by topic0: eth_getLogs", async () => {
    const got = await rows<{
      block_number: number;
      tx_hash: string;
      topics: string[];
      data: string;
    }>(example("Logs of a contract").replaceAll("0x…", token()));
    const logs = await provider.getLogs({
      address: token(),
      topics: [TOPIC.transfer],
      fromBlock: 1,
      toBlock: top,
    });
    expect(logs.length).toBeGreaterThan(1);
    expect(got.map((r) => [Number(r.block_number), r.tx_hash, r.topics, r.data])).toEqual(
      logs.map((l) => [l.blockNumber, l.transactionHash, [...l.topics], l.data]),
    );
  });
});
