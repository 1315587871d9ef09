import { toBech32 } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { TOKEN_ABI, TOPIC } from "@explorer/raw-block";
import { Interface, JsonRpcProvider, type Log } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader, transfersOf } from "../lib/api-node.ts";
import { mapLimit } from "../lib/comet.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * `/addresses/{address}/tokens` against the node: for every address the scenario's token
 * transfers touched, every token it holds at the API's height, as the token itself answers
 * (balanceOf, ownerOf, ERC-1155 balanceOf by id, name, symbol, decimals via eth_call).
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const abi = new Interface(TOKEN_ABI);
const top = () => scenario.toHeight;
const ZERO = `0x${"0".repeat(40)}`;

let store: ScenarioStore;
let api: string;
const { every } = apiReader(() => api);

/** eth_call of `fn` at the top: its first result, or null when it reverts. */
const call = async (to: string, fn: string, args: unknown[]): Promise<any> => {
  try {
    const out = await provider.call({
      to,
      data: abi.encodeFunctionData(fn, args),
      blockTag: top(),
    });
    return abi.decodeFunctionResult(fn, out)[0];
  } catch {
    return null;
  }
};

type Standard = "CFC-20" | "CFC-721" | "ERC-1155";
interface Token {
  readonly standard: Standard;
  readonly ids: Set<string>;
}

/** Every token the scenario moved, with the ids it moved, and every address on either side. */
const readTransfers = async () => {
  const logs: Log[] = await provider.getLogs({
    fromBlock: 1,
    toBlock: top(),
    topics: [[TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch]],
  });
  const tokens = new Map<string, Token>();
  const holders = new Set<string>();
  for (const l of logs) {
    if (l.topics[0] === TOPIC.transfer && l.topics.length < 3) continue;
    const standard: Standard =
      l.topics[0] !== TOPIC.transfer ? "ERC-1155" : l.topics.length === 4 ? "CFC-721" : "CFC-20";
    const a = l.address.toLowerCase();
    const t = tokens.get(a) ?? { standard, ids: new Set<string>() };
    tokens.set(a, t);
    for (const x of transfersOf(l)) {
      if (x.tokenId !== "") t.ids.add(x.tokenId);
      for (const h of [x.from, x.to]) if (h !== ZERO) holders.add(h);
    }
  }
  expect(new Set([...tokens.values()].map((t) => t.standard)).size).toBe(3);
  return { tokens, holders: [...holders].sort() };
};

/** eth_call of `fn` at height `h`: its first result, or null when it reverts. */
const callAt = async (to: string, fn: string, h: number): Promise<any> => {
  const out = await provider.call({ to, data: abi.encodeFunctionData(fn, []), blockTag: h });
  return abi.decodeFunctionResult(fn, out)[0];
};

/** What an address holds, as the node says: the API's records, ordered by contract. */
const holdings = async (holder: string, tokens: Map<string, Token>) => {
  const out: object[] = [];
  for (const [contract, t] of [...tokens].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let held: object | null = null;
    if (t.standard === "ERC-1155") {
      const ids = [...t.ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
      const balances = await Promise.all(
        ids.map((id) => call(contract, "balanceOf(address,uint256)", [holder, id])),
      );
      const tokens = ids
        .map((tokenId, i) => ({ tokenId, balance: String(balances[i] ?? 0n) }))
        .filter((x) => x.balance !== "0");
      const sum = tokens.reduce((s, x) => s + BigInt(x.balance), 0n);
      if (sum > 0n) held = { balance: String(sum), tokens };
    } else {
      const balance = String((await call(contract, "balanceOf(address)", [holder])) ?? 0n);
      if (balance !== "0") {
        held = { balance };
        if (t.standard === "CFC-721") {
          const ids = [...t.ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
          const owners = await Promise.all(ids.map((id) => call(contract, "ownerOf", [id])));
          held = {
            balance,
            tokenIds: ids.filter((_, i) => String(owners[i]).toLowerCase() === holder),
          };
        }
      }
    }
    if (!held) continue;
    const [name, symbol, decimals] = await Promise.all(
      ["name", "symbol", "decimals"].map((fn) => call(contract, fn, [])),
    );
    out.push({
      contractAddress: contract,
      tokenType: t.standard,
      ...(name ? { name } : {}),
      ...(symbol ? { symbol } : {}),
      ...(decimals === null ? {} : { decimals: Number(decimals) }),
      ...held,
    });
  }
  return out;
};

let node: { tokens: Map<string, Token>; holders: string[] };

beforeAll(async () => {
  store = await scenarioStore("address-tokens", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  node = await readTransfers();
}, 600_000);

afterAll(async () => store?.close());

describe("/addresses/{address}/tokens", () => {
  it("gives every token each address holds, as the tokens answer at the API's height", async () => {
    expect(node.holders.length).toBeGreaterThan(3);
    const seen = new Set<string>();
    await mapLimit(node.holders, 2, async (h) => {
      const want = await holdings(h, node.tokens);
      const docs = await every(`/addresses/${h}/tokens?sort=contractAddress`);
      const got = docs.map(({ blockNumber, timestamp, ...d }) => {
        expect(blockNumber, h).toBeLessThanOrEqual(top());
        expect(Date.parse(timestamp), h).toBeGreaterThan(0);
        return d;
      });
      expect(got, h).toEqual(want);
      for (const d of docs) seen.add(d.tokenType);
    });
    expect([...seen].sort()).toEqual(["CFC-20", "CFC-721", "ERC-1155"]);
  });

  it("takes the address in either form, filters by type, and refuses a bad one", async () => {
    const h = node.holders[0]!;
    const bech = toBech32("cosmos", Buffer.from(h.slice(2), "hex"));
    expect(await every(`/addresses/${bech}/tokens`)).toEqual(await every(`/addresses/${h}/tokens`));
    for (const type of ["CFC-20", "CFC-721", "ERC-1155"]) {
      const docs = await every(`/addresses/${h}/tokens?tokenType=${type}`);
      for (const d of docs) expect(d.tokenType).toBe(type);
    }
    for (const bad of ["0x12", "cosmos1nope"]) {
      const r = await fetch(`${api}/addresses/${bad}/tokens`);
      expect(r.status, bad).toBe(400);
    }
    expect((await fetch(`${api}/addresses/${h}/tokens?tokenType=ERC-777`)).status).toBe(400);
  });
});

describe("a token behind a proxy", () => {
  it("shows the name, symbol and decimals it took after its creation, and after an upgrade", async () => {
    const proxy = scenario.contracts.ProxyToken?.toLowerCase();
    expect(proxy, "the scenario's ProxyToken").toBeTruthy();
    const at = (label: string) => scenario.sent.find((x) => x.label === label)!.height;
    const created = at("proxy token deploy EIP-1967 proxy (uninitialized)");
    // created nameless, decimals 0: what the explorer used to show for good
    expect(await callAt(proxy!, "name", created)).toBe("");
    expect(Number(await callAt(proxy!, "decimals", created))).toBe(0);
    const want = {
      name: await call(proxy!, "name", []),
      symbol: await call(proxy!, "symbol", []),
      decimals: Number(await call(proxy!, "decimals", [])),
    };
    expect(want).toEqual({ name: "Proxied Token v2", symbol: "PRX", decimals: 6 });
    const r = await fetch(`${api}/tokens/${proxy}`);
    expect(r.status).toBe(200);
    const token = (await r.json()) as Record<string, unknown>;
    expect(token).toMatchObject({ ...want, tokenType: "CFC-20", contractAddress: proxy });
    const holder = (await every(`/token-holders?contractAddress=${proxy}`))[0];
    const held = await every(`/addresses/${holder.address}/tokens?tokenType=CFC-20`);
    expect(held.find((d) => d.contractAddress === proxy)).toMatchObject(want);
  });
});
