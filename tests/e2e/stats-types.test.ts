import { fromBase64 } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { TOKEN_ABI, TOPIC } from "@explorer/raw-block";
import { TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { Interface, JsonRpcProvider, type Log, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiReader, transfersOf } from "../lib/api-node.ts";
import { cometGet, mapLimit } from "../lib/comet.ts";
import { type CallFrame, createdBelow } from "../lib/created.ts";
import type { ScenarioStore } from "../lib/scenario-store.ts";
import { statsStore } from "../lib/stats-store.ts";

/**
 * Issue 45's charts of messages by type, token transfers by token type, new tokens, active
 * validators and delegators: each equals what the node says of the same heights (CometBFT's
 * blocks, the EVM's logs, receipts, traces and eth_call, staking's validators and their
 * delegations at each height), not our tables. (Verified contracts: tests/e2e/verify.test.ts.)
 */
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const token = new Interface(TOKEN_ABI);
const ERC721 = "0x80ac58cd";
const ERC1155 = "0xd9b67a26";

let store: ScenarioStore;
let api: string;
let top: number;
const { get } = apiReader(() => api);

/** Per height: its UTC day, its messages by type URL, its validators (bonded) and delegators. */
const dayAt = new Map<number, string>();
const messagesAt = new Map<number, Map<string, number>>();
const bondedAt = new Map<number, number>();
const delegatorsAt = new Map<number, Set<string>>();
/** Token transfer items by token type, then height. */
const transfers = new Map<string, Map<number, number>>();
/** The height each token was first read as one, by contract. */
const tokenFirst = new Map<string, number>();

/** A REST answer of the node at height `h`. */
const rest = async (path: string, h: number): Promise<any> => {
  const r = await fetch(`${e.rest}${path}`, { headers: { "x-cosmos-block-height": String(h) } });
  expect(r.status, path).toBe(200);
  return r.json();
};

/** The block's day and its messages by type, from its transactions' bodies. */
const readBlock = async (h: number) => {
  const block = await cometGet(e.cometRpc, `/block?height=${h}`);
  dayAt.set(h, String(block.block.header.time).slice(0, 10));
  const by = new Map<string, number>();
  for (const b64 of (block.block.data.txs ?? []) as string[])
    for (const m of TxBody.decode(TxRaw.decode(fromBase64(b64)).bodyBytes).messages)
      by.set(m.typeUrl, (by.get(m.typeUrl) ?? 0) + 1);
  messagesAt.set(h, by);
};

/** Staking's validators at `h` (bonded counted) and every account delegating to one of them. */
const readStaking = async (h: number) => {
  const { validators } = await rest("/cosmos/staking/v1beta1/validators?pagination.limit=1000", h);
  bondedAt.set(h, validators.filter((v: any) => v.status === "BOND_STATUS_BONDED").length);
  const delegators = new Set<string>();
  for (const v of validators) {
    const d = await rest(
      `/cosmos/staking/v1beta1/validators/${v.operator_address}/delegations?pagination.limit=1000`,
      h,
    );
    for (const r of d.delegation_responses) delegators.add(r.delegation.delegator_address);
  }
  delegatorsAt.set(h, delegators);
};

/** An eth_call's result at `h`, decoded, or null when it reverts or does not decode. */
const call = async (to: string, fn: string, args: unknown[], h: number) => {
  try {
    const out = await provider.call({ to, data: token.encodeFunctionData(fn, args), blockTag: h });
    return token.decodeFunctionResult(fn, out)[0] as unknown;
  } catch {
    return null;
  }
};

/** Whether the contract answers at `h` as a CFC-721 or ERC-1155 (ERC-165) or a CFC-20 (supply and balances). */
const isToken = async (address: string, h: number) =>
  (await call(address, "supportsInterface", [ERC721], h)) === true ||
  (await call(address, "supportsInterface", [ERC1155], h)) === true ||
  ((await call(address, "totalSupply", [], h)) !== null &&
    (await call(address, "balanceOf(address)", [address], h)) !== null);

/**
 * The contracts created at `h` (successful receipts' contractAddress, and CREATE and CREATE2
 * frames that did not fail): a contract is asked what it is when it is created.
 */
const createdAt = async (h: number): Promise<string[]> => {
  const b = await provider.send("eth_getBlockByNumber", [toQuantity(h), false]);
  if (b.transactions.length === 0) return [];
  const receipts = await Promise.all(
    (b.transactions as string[]).map((t) => provider.send("eth_getTransactionReceipt", [t])),
  );
  const traces = (await provider.send("debug_traceBlockByNumber", [
    b.number,
    { tracer: "callTracer" },
  ])) as { result: CallFrame }[];
  return receipts.flatMap((r, i) =>
    r.status !== "0x1"
      ? []
      : [
          ...(r.contractAddress ? [String(r.contractAddress).toLowerCase()] : []),
          ...createdBelow(traces[i]!.result).map((f) => f.to!.toLowerCase()),
        ],
  );
};

/** Token events: Transfer, TransferSingle, TransferBatch. */
const TRANSFERS: readonly string[] = [TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch];
/** The logs that make a contract be asked again what it is: token events, Upgraded, Initialized. */
const ASKED_AGAIN = [...TRANSFERS, TOPIC.upgraded, TOPIC.initialized8, TOPIC.initialized64];

/** The token type of a transfer log as the explorer names it, or undefined for another shape. */
const tokenTypeOf = (l: Log): string | undefined => {
  if (l.topics[0] === TOPIC.transfer)
    return l.topics.length === 3 ? "CFC-20" : l.topics.length === 4 ? "CFC-721" : undefined;
  return l.topics.length === 4 ? "ERC-1155" : undefined;
};

beforeAll(async () => {
  const s = await statsStore("stats-types");
  ({ store, api, top } = s);
  const { heights, lowest } = s;
  await mapLimit(heights, 8, readBlock);
  await mapLimit(heights, 8, readStaking);
  const logs = await provider.getLogs({ fromBlock: lowest, toBlock: top, topics: [ASKED_AGAIN] });
  for (const l of logs) {
    if (!TRANSFERS.includes(l.topics[0]!)) continue;
    const type = tokenTypeOf(l);
    if (!type) continue;
    const by = transfers.get(type) ?? new Map<number, number>();
    by.set(l.blockNumber, (by.get(l.blockNumber) ?? 0) + transfersOf(l).length);
    transfers.set(type, by);
  }
  // each contract asked what it is at its creation and at each height of such a log; first "a token"
  const asked = new Map<string, Set<number>>();
  const ask = (a: string, h: number) => asked.set(a, (asked.get(a) ?? new Set<number>()).add(h));
  for (const l of logs) ask(l.address.toLowerCase(), l.blockNumber);
  const created = await mapLimit(heights, 8, createdAt);
  heights.forEach((h, i) => {
    for (const a of created[i]!) ask(a, h);
  });
  await mapLimit([...asked], 4, async ([a, hs]) => {
    for (const h of [...hs].sort((x, y) => x - y))
      if (await isToken(a, h)) {
        tokenFirst.set(a, h);
        return;
      }
  });
}, 600_000);

afterAll(async () => store?.close());

/** Every day from the first day with a block to the last. */
const allDays = () => {
  const ds = [...new Set(dayAt.values())].sort();
  const out: string[] = [];
  for (
    let t = Date.parse(`${ds[0]}T00:00:00Z`);
    t <= Date.parse(`${ds.at(-1)}T00:00:00Z`);
    t += 86_400_000
  )
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};
/** Counts at heights, as points: each day's sum, 0 on a day without any. */
const perDay = (at: (h: number) => number) => {
  const by = new Map<string, number>();
  for (const [h, d] of dayAt) by.set(d, (by.get(d) ?? 0) + at(h));
  return allDays().map((d) => [d, String(by.get(d) ?? 0)]);
};
/** Each day's last height. */
const lastOf = () => {
  const by = new Map<string, number>();
  for (const [h, d] of dayAt) by.set(d, Math.max(by.get(d) ?? 0, h));
  return by;
};
const points = async (path: string) =>
  ((await get(`/stats/lines/${path}`)).chart as { date: string; value: string }[]).map((p) => [
    p.date,
    p.value,
  ]);
const counters = async () =>
  new Map(
    ((await get("/stats/counters")).counters as { id: string; value: string }[]).map((c) => [
      c.id,
      c.value,
    ]),
  );
const status = async (path: string) => {
  const r = await fetch(`${api}${path}`);
  return { status: r.status, body: (await r.json()) as { error?: string } };
};

describe("newMessages?type=", () => {
  it("gives each type's messages per day as the node's transaction bodies hold them", async () => {
    const types = new Set([...messagesAt.values()].flatMap((m) => [...m.keys()]));
    expect(types.size).toBeGreaterThan(3);
    for (const t of types) {
      const want = perDay((h) => messagesAt.get(h)?.get(t) ?? 0);
      expect(await points(`newMessages?type=${encodeURIComponent(t)}`), t).toEqual(want);
    }
    // the types add up to every message
    expect(await points("newMessages")).toEqual(
      perDay((h) => [...(messagesAt.get(h)?.values() ?? [])].reduce((a, b) => a + b, 0)),
    );
  });

  it("a type never seen is a line of zeros; a malformed type, or a type on another chart, is 400", async () => {
    expect(await points("newMessages?type=/never.seen.v1.MsgNothing")).toEqual(perDay(() => 0));
    for (const [q, says] of [
      ["newMessages?type=MsgSend", /message type URL/],
      ["newTxns?type=/cosmos.bank.v1beta1.MsgSend", /does not apply/],
      ["newTokenTransfers?type=ERC-777", /token type/],
    ] as const) {
      const r = await status(`/stats/lines/${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error, q).toMatch(says);
    }
  });
});

describe("newTokenTransfers?type=", () => {
  it("gives each token type's transfers per day as the node's logs make them", async () => {
    expect(transfers.size).toBe(3);
    for (const type of ["CFC-20", "CFC-721", "ERC-1155"]) {
      const by = transfers.get(type)!;
      expect(await points(`newTokenTransfers?type=${type}`), type).toEqual(
        perDay((h) => by.get(h) ?? 0),
      );
    }
  });
});

describe("tokens", () => {
  it("newTokens and totalTokens: contracts by the height they first answered as a token", async () => {
    expect(tokenFirst.size).toBeGreaterThan(2);
    const at = new Map<number, number>();
    for (const h of tokenFirst.values()) at.set(h, (at.get(h) ?? 0) + 1);
    expect(await points("newTokens")).toEqual(perDay((h) => at.get(h) ?? 0));
    expect((await counters()).get("totalTokens")).toBe(String(tokenFirst.size));
  });
});

describe("validators and delegators", () => {
  it("activeValidators: staking's bonded validators at each day's last height", async () => {
    const last = lastOf();
    let carried = 0; // a day without blocks repeats the day before's
    const want = allDays().map((d) => {
      const h = last.get(d);
      if (h !== undefined) carried = bondedAt.get(h)!;
      return [d, String(carried)];
    });
    expect(await points("activeValidators")).toEqual(want);
  });

  it("newDelegators and totalDelegators: accounts by the first height they delegate at; those delegating at the last", async () => {
    const first = new Map<string, number>();
    for (const [h, ds] of [...delegatorsAt].sort(([a], [b]) => a - b))
      for (const d of ds) if (!first.has(d)) first.set(d, h);
    expect(first.size).toBeGreaterThan(1);
    const at = new Map<number, number>();
    for (const h of first.values()) at.set(h, (at.get(h) ?? 0) + 1);
    expect(await points("newDelegators")).toEqual(perDay((h) => at.get(h) ?? 0));
    expect((await counters()).get("totalDelegators")).toBe(String(delegatorsAt.get(top)!.size));
  });
});
