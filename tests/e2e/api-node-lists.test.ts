import { sha256 } from "@cosmjs/crypto";
import { fromBase64, fromHex, toBech32, toHex } from "@cosmjs/encoding";
import { endpoints, nodePorts } from "@explorer/infra";
import { openCurrentSet } from "@explorer/projector";
import { TOKEN_ABI, TOPIC } from "@explorer/raw-block";
import { ensureCurrentSet } from "@explorer/store";
import { Interface, JsonRpcProvider, type Log, toQuantity } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader, cometReader, topicAddress, transfersOf } from "../lib/api-node.ts";
import { attr, type ChainTx, mapLimit, readChainTxs } from "../lib/comet.ts";
import { type CallFrame, createdBelow } from "../lib/created.ts";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * The lists whose filters and sorts were checked against the projector's own tables only, now
 * against the node: the tokens lists' filters (both families), `/txs` by `existsEVM` and
 * `messageType`, the CFC-721 inventory, `/validators` by jailing and bond status, the sorts of
 * `/contracts` and the validators' signed blocks, and the 404 and 429 answers. Every list is read
 * to its last page, in both directions of its sort, and compared as an exact, ordered list with
 * what the node says: receipts, call traces, eth_call, logs, CometBFT blocks and commits, the
 * Cosmos REST gateway (at the API's projected height).
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const comet = cometReader(e.cometRpc);
const top = () => scenario.toHeight;

let store: ScenarioStore;
let api: string;
const { get, every } = apiReader(() => api);

type TokenType = "CFC-20" | "CFC-721" | "ERC-1155";
const TOKEN_TYPES: readonly TokenType[] = ["CFC-20", "CFC-721", "ERC-1155"];
const STATUSES = ["BOND_STATUS_BONDED", "BOND_STATUS_UNBONDING", "BOND_STATUS_UNBONDED"] as const;

/** A contract as the node shows it: created by a successful transaction (or a frame of one). */
interface NodeContract {
  readonly address: string;
  readonly creator: string;
  readonly txHash: string;
  readonly block: number;
  /** What it answers to eth_call at its creation height ("" for no token). */
  readonly type: TokenType | "";
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: number | null;
}

const calls = new Interface(TOKEN_ABI);
/** eth_call of `fn` on `to` at `blockTag`: its first result, or null when it reverts or says nothing. */
const call = async (to: string, fn: string, args: unknown[], blockTag: number): Promise<any> => {
  try {
    const out = await provider.call({ to, data: calls.encodeFunctionData(fn, args), blockTag });
    return calls.decodeFunctionResult(fn, out)[0];
  } catch {
    return null;
  }
};

const ZERO = `0x${"0".repeat(40)}`;
/** The owner of an NFT at the top (lowercase), null where it has none (burned: a revert or zero). */
const ownerOf = async (contract: string, id: bigint | string): Promise<string | null> => {
  const owner = await call(contract, "ownerOf", [id], top());
  return owner === null || String(owner).toLowerCase() === ZERO
    ? null
    : String(owner).toLowerCase();
};

/** `xs` ordered by `key`, ties by `id`, both in the direction asked (as the API documents ties). */
const ordered = <T>(
  xs: readonly T[],
  key: (x: T) => bigint | number | string,
  id: (x: T) => string,
  desc: boolean,
): T[] =>
  [...xs].sort((a, b) => {
    const [x, y, m, n] = [key(a), key(b), id(a), id(b)];
    const c = x < y ? -1 : x > y ? 1 : m < n ? -1 : m > n ? 1 : 0;
    return desc ? -c : c;
  });

const bech32 = (evm: string) => toBech32("cosmos", fromHex(evm.slice(2)));
const rest = async (path: string, height?: number) => {
  const r = await fetch(`${e.rest}${path}`, {
    headers: height ? { "x-cosmos-block-height": String(height) } : {},
  });
  expect(r.status, path).toBe(200);
  return (await r.json()) as any;
};

/** What the node says, read once for every test (heights 1 … the scenario's last). */
interface Node {
  contracts: NodeContract[];
  /** EVM transaction hashes of the EVM blocks. */
  evmTxs: string[];
  /** The Cosmos txs in chain order, with their top-level message type URLs from the REST gateway. */
  txs: (ChainTx & { messages: string[] })[];
  /** Token transfers per contract, from Transfer, TransferSingle and TransferBatch logs. */
  transfers: Map<string, ReturnType<typeof transfersOf>>;
  /** CFC-721 Transfer logs per contract. */
  nftLogs: Map<string, Log[]>;
}
let node: Node;

const readNode = async (): Promise<Node> => {
  const heights = Array.from({ length: top() }, (_, i) => i + 1);
  const blocks = await mapLimit(heights, 8, (h) =>
    provider.send("eth_getBlockByNumber", [toQuantity(h), false]),
  );
  const evmTxs: string[] = blocks.flatMap((b) => b.transactions as string[]);
  const created: Omit<NodeContract, "type" | "name" | "symbol" | "decimals">[] = [];
  for (const b of blocks.filter((b) => b.transactions.length > 0)) {
    const h = Number(b.number);
    const receipts = await mapLimit(
      b.transactions as string[],
      4,
      async (t) => (await provider.getTransactionReceipt(t))!,
    );
    const traces = (await provider.send("debug_traceBlockByNumber", [
      toQuantity(h),
      { tracer: "callTracer" },
    ])) as { txHash?: string; result: CallFrame }[];
    expect(traces.length, `traces of ${h}`).toBe(receipts.length);
    receipts.forEach((r, i) => {
      if (r.status !== 1) return;
      if (traces[i]!.txHash) expect(traces[i]!.txHash).toBe(r.hash);
      const at = { txHash: r.hash.toLowerCase(), block: h };
      if (r.contractAddress)
        created.push({
          address: r.contractAddress.toLowerCase(),
          creator: r.from.toLowerCase(),
          ...at,
        });
      for (const f of createdBelow(traces[i]!.result))
        created.push({ address: f.to!.toLowerCase(), creator: f.from.toLowerCase(), ...at });
    });
  }
  const contracts = await mapLimit(created, 4, async (c): Promise<NodeContract> => {
    const [is721, is1155, supply, balance] = await Promise.all([
      call(c.address, "supportsInterface", ["0x80ac58cd"], c.block),
      call(c.address, "supportsInterface", ["0xd9b67a26"], c.block),
      call(c.address, "totalSupply", [], c.block),
      call(c.address, "balanceOf(address)", [c.address], c.block),
    ]);
    const type =
      is721 === true
        ? "CFC-721"
        : is1155 === true
          ? "ERC-1155"
          : supply !== null && balance !== null
            ? "CFC-20"
            : "";
    const [name, symbol, decimals] = type
      ? await Promise.all([
          call(c.address, "name", [], top()),
          call(c.address, "symbol", [], top()),
          call(c.address, "decimals", [], top()),
        ])
      : [null, null, null];
    return {
      ...c,
      type,
      name,
      symbol,
      decimals: decimals === null ? null : Number(decimals),
    };
  });
  const chainTxs = await readChainTxs(e.cometRpc, 1, top());
  const txs = await mapLimit(chainTxs, 8, async (t) => ({
    ...t,
    messages: ((await rest(`/cosmos/tx/v1beta1/txs/${t.hash}`)).tx.body.messages as any[]).map(
      (m) => m["@type"] as string,
    ),
  }));
  const transferLogs = (
    await provider.getLogs({
      fromBlock: 1,
      toBlock: top(),
      topics: [[TOPIC.transfer, TOPIC.transferSingle, TOPIC.transferBatch]],
    })
  ).filter((l) =>
    l.topics[0] === TOPIC.transfer
      ? l.topics.length === 3 || l.topics.length === 4
      : l.topics.length === 4,
  );
  const transfers = new Map<string, ReturnType<typeof transfersOf>>();
  const nftLogs = new Map<string, Log[]>();
  for (const l of transferLogs) {
    const a = l.address.toLowerCase();
    transfers.set(a, [...(transfers.get(a) ?? []), ...transfersOf(l)]);
    if (l.topics[0] === TOPIC.transfer && l.topics.length === 4)
      nftLogs.set(a, [...(nftLogs.get(a) ?? []), l]);
  }
  return { contracts, evmTxs, txs, transfers, nftLogs };
};

beforeAll(async () => {
  store = await scenarioStore("api-node-lists", inject("logDir"));
  const { db } = await openCurrentSet(store.ch, "explorer");
  await store.project(db);
  api = await store.api("explorer");
  node = await readNode();
}, 600_000);

afterAll(async () => store?.close());

const tokens = () => node.contracts.filter((c) => c.type !== "");
const byCreation = (cs: readonly NodeContract[], desc: boolean) =>
  ordered(
    cs,
    (c) => c.block,
    (c) => c.address,
    desc,
  );
/** Only the fields given (undefined ones dropped), to compare a record with what the node says. */
const pick = (doc: any, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]));
const TOKEN_KEYS = [
  "contractAddress",
  "creatorAddress",
  "txHashCreate",
  "blockNumberCreate",
  "tokenType",
  "name",
  "symbol",
  "tokenSymbol",
  "decimals",
] as const;
/** A contract record's fields that the node gives: a token's up to `name`. */
const CONTRACT_KEYS = TOKEN_KEYS.slice(0, TOKEN_KEYS.indexOf("name") + 1);
/** A token record as the node's receipts and eth_calls make it. */
const asToken = (c: NodeContract) => ({
  contractAddress: c.address,
  creatorAddress: c.creator,
  txHashCreate: c.txHash,
  blockNumberCreate: String(c.block),
  tokenType: c.type,
  ...(c.name ? { name: c.name } : {}),
  ...(c.symbol ? { symbol: c.symbol, tokenSymbol: c.symbol } : {}),
  ...(c.decimals === null ? {} : { decimals: c.decimals }),
});

describe("token lists' filters against the deploy receipts and eth_call", () => {
  /**
   * A tokens list (`query`, no `?`) in both families, oldest and newest first: exactly the
   * node's tokens `keep` selects (family A: of `tokenType`, CFC-20 when the query names none),
   * in creation order, each record as the node makes it.
   */
  const check = async (query: string, keep: (c: NodeContract) => boolean, label = query) => {
    const type = new URLSearchParams(query).get("tokenType");
    for (const [path, family] of [
      ["/tokens", (_: NodeContract) => true],
      ["/tokens-erc20", (c: NodeContract) => c.type === (type ?? "CFC-20")],
    ] as const) {
      const expected = tokens().filter((c) => keep(c) && family(c));
      for (const desc of [false, true]) {
        const listed = await every(
          `${path}?${query}${query ? "&" : ""}sort=${desc ? "-" : ""}blockNumber`,
        );
        expect(
          listed.map((t) => pick(t, TOKEN_KEYS)),
          `${path}?${label} ${desc ? "newest" : "oldest"} first`,
        ).toEqual(byCreation(expected, desc).map(asToken));
      }
    }
  };

  it("no filter: every token the node has, of each kind", async () => {
    for (const t of TOKEN_TYPES)
      expect(
        tokens().some((c) => c.type === t),
        t,
      ).toBe(true);
    expect(node.contracts.some((c) => c.type === "")).toBe(true);
    await check("", () => true, "(none)");
  });

  it("creatorAddress, in either form: the tokens whose deploy receipt has that sender", async () => {
    const creators = new Set(node.contracts.map((c) => c.creator));
    // the creators of contracts that are no tokens (a factory among them) list none
    expect([...creators].some((a) => !tokens().some((c) => c.creator === a))).toBe(true);
    for (const a of creators) {
      await check(`creatorAddress=${a}`, (c) => c.creator === a);
      await check(`creatorAddress=${bech32(a)}`, (c) => c.creator === a);
    }
  });

  it("blockNumber: the tokens whose deploy receipt is in that block", async () => {
    const blocks = new Set(node.contracts.map((c) => c.block));
    for (const b of blocks) await check(`blockNumber=${b}`, (c) => c.block === b);
  });

  it("txHash and txHashCreate, by the EVM or the Cosmos hash: the token that tx deployed", async () => {
    const cosmosOf = (evm: string) =>
      node.txs.find((t) => attr(t, "ethereum_tx", "ethereumTxHash")?.toLowerCase() === evm)?.hash;
    for (const c of node.contracts) {
      const cosmos = cosmosOf(c.txHash);
      expect(cosmos, c.txHash).toMatch(/^[0-9A-F]{64}$/);
      for (const param of ["txHash", "txHashCreate"])
        for (const h of [c.txHash, cosmos!])
          await check(`${param}=${h}`, (t) => t.txHash === c.txHash);
    }
  });

  it("tokenSymbol: the tokens whose symbol() says so", async () => {
    const symbols = new Set(tokens().flatMap((c) => (c.symbol ? [c.symbol] : [])));
    expect(symbols.size).toBeGreaterThan(1);
    for (const s of symbols)
      await check(`tokenSymbol=${encodeURIComponent(s)}`, (c) => c.symbol === s);
    await check("tokenSymbol=NO-SUCH-SYMBOL", () => false);
  });

  it("tokenType: the tokens that answer as that standard, alone and with other filters", async () => {
    for (const t of TOKEN_TYPES) {
      await check(`tokenType=${t}`, (c) => c.type === t);
      for (const a of new Set(tokens().map((c) => c.creator)))
        await check(`tokenType=${t}&creatorAddress=${a}`, (c) => c.type === t && c.creator === a);
    }
  });
});

describe("/txs by existsEVM and messageType against CometBFT and the REST gateway", () => {
  const isEvm = (t: Node["txs"][number]) => t.messages.some((m) => m.endsWith(".MsgEthereumTx"));
  /** A /txs list newest first (the default) and oldest first: exactly the node's `expected`. */
  const check = async (query: string, expected: readonly ChainTx[]) => {
    const newest = await every(`/txs?${query}`);
    expect(
      newest.map((t) => `${t.height}:${t.txhash}`),
      query,
    ).toEqual([...expected].reverse().map((t) => `${t.height}:${t.hash}`));
    const oldest = await every(`/txs?${query}&sort=height`);
    expect(
      oldest.map((t) => t.txhash),
      `${query}&sort=height`,
    ).toEqual(expected.map((t) => t.hash));
    return newest;
  };

  it("existsEVM=true: the txs carrying a MsgEthereumTx, holding every tx of the EVM blocks", async () => {
    const evm = node.txs.filter(isEvm);
    expect(evm.length).toBeGreaterThan(10);
    const listed = await check("existsEVM=true", evm);
    for (const t of listed) expect(t.isEVM, t.txhash).toBe(true);
    expect(listed.flatMap((t) => t.evm_txhashes).sort()).toEqual(
      node.evmTxs.map((h) => h.toLowerCase()).sort(),
    );
  });

  it("existsEVM=false: the txs without one", async () => {
    const cosmos = node.txs.filter((t) => !isEvm(t));
    expect(cosmos.length).toBeGreaterThan(10);
    const listed = await check("existsEVM=false", cosmos);
    for (const t of listed) {
      expect(t.isEVM, t.txhash).toBe(false);
      expect(t.evm_txhashes, t.txhash).toEqual([]);
    }
  });

  it("messageType: the txs with a top-level message of that type, alone and with existsEVM", async () => {
    const types = [...new Set(node.txs.flatMap((t) => t.messages))].sort();
    expect(types.length).toBeGreaterThan(15);
    // some txs carry messages inside their own (authz MsgExec): only a tx's own ones count
    // (docs/api.md), and that is what the node's top-level messages are
    expect(node.txs.some((t) => t.typeUrls.length > t.messages.length)).toBe(true);
    for (const type of types) {
      const expected = node.txs.filter((t) => t.messages.includes(type));
      await check(`messageType=${type}`, expected);
      const evm = type.endsWith(".MsgEthereumTx");
      await check(`messageType=${type}&existsEVM=${evm}`, expected);
      await check(`messageType=${type}&existsEVM=${!evm}`, []);
    }
    // the type URL without its leading slash names the same type
    const send = "/cosmos.bank.v1beta1.MsgSend";
    await check(
      `messageType=${send.slice(1)}`,
      node.txs.filter((t) => t.messages.includes(send)),
    );
  });
});

describe("token inventory against Transfer logs, ownerOf and tokenURI", () => {
  it("every CFC-721 token the logs made, its owner and URI as eth_call gives them, both orders", async () => {
    const nfts = tokens().filter((c) => c.type === "CFC-721");
    expect(nfts.length).toBeGreaterThan(0);
    const all: string[] = [];
    const owners = new Map<string, string[]>();
    let burned = 0;
    for (const c of nfts) {
      const logs = node.nftLogs.get(c.address) ?? [];
      const ids = [...new Set(logs.map((l) => BigInt(l.topics[3]!)))].sort((a, b) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      expect(ids.length, c.address).toBeGreaterThan(1);
      const expected = [];
      for (const id of ids) {
        const mine = logs.filter((l) => BigInt(l.topics[3]!) === id);
        const last = mine.at(-1)!;
        const gone = topicAddress(last.topics[2]!) === ZERO;
        const owner = await ownerOf(c.address, id);
        const uri = await call(c.address, "tokenURI", [id], top());
        if (gone) {
          // burned: the node has no owner for it; the API keeps it, with no owner (docs/api.md)
          burned++;
          expect(owner, `${c.address} #${id}`).toBeNull();
        } else {
          expect(owner, `${c.address} #${id}`).not.toBeNull();
          owners.set(owner!, [...(owners.get(owner!) ?? []), `${c.address}/${id}`]);
        }
        all.push(`${c.address}/${id}`);
        expected.push({
          contractAddress: c.address,
          tokenId: String(id),
          ownerAddress: gone ? "" : owner,
          creatorAddress: c.creator,
          tokenType: "CFC-721",
          transferCount: mine.length,
          ...(gone ? {} : { tokenURI: uri }),
        });
      }
      for (const desc of [false, true]) {
        const listed = await every(
          `/token-inventory?contractAddress=${c.address}&sort=${desc ? "-" : ""}tokenId`,
        );
        const keys = [
          "contractAddress",
          "tokenId",
          "ownerAddress",
          "creatorAddress",
          "tokenType",
          "transferCount",
          "tokenURI",
        ];
        expect(
          listed.map((t) => {
            const p = pick(t, keys);
            if (p.ownerAddress === "") delete p.tokenURI;
            return p;
          }),
          `${c.address} ${desc ? "-" : ""}tokenId`,
        ).toEqual(desc ? [...expected].reverse() : expected);
        for (const t of listed) {
          // the item path answers the same record
          expect(await get(`/token-inventory/${c.address}/${t.tokenId}`)).toEqual(t);
          // no later than the chain's top, no earlier than the token's last transfer
          const last = node.nftLogs
            .get(c.address)!
            .filter((l) => String(BigInt(l.topics[3]!)) === t.tokenId)
            .at(-1)!;
          expect(t.blockNumber).toBeGreaterThanOrEqual(last.blockNumber);
          expect(t.blockNumber).toBeLessThanOrEqual(top());
        }
        const heights = (
          await every(
            `/token-inventory?contractAddress=${c.address}&sort=${desc ? "-" : ""}blockNumber`,
          )
        ).map((t) => t.blockNumber);
        expect(heights).toEqual([...heights].sort((a, b) => (desc ? b - a : a - b)));
      }
    }
    expect(burned).toBeGreaterThan(0);
    const key = (t: any) => `${t.contractAddress}/${t.tokenId}`;
    expect((await every("/token-inventory")).map(key).sort()).toEqual([...all].sort());
    expect((await every("/token-inventory?tokenType=CFC-721")).map(key).sort()).toEqual(
      [...all].sort(),
    );
    for (const [owner, held] of owners) {
      for (const form of [owner, bech32(owner)])
        expect(
          (await every(`/token-inventory?ownerAddress=${form}`)).map(key).sort(),
          `ownerAddress=${form}`,
        ).toEqual([...held].sort());
    }
    for (const creator of new Set(nfts.map((c) => c.creator)))
      expect((await every(`/token-inventory?creatorAddress=${creator}`)).map(key).sort()).toEqual(
        all
          .filter((k) => nfts.some((c) => c.creator === creator && k.startsWith(c.address)))
          .sort(),
      );
  });
});

/** The staking module's validators at a height, as the REST gateway gives them. */
const stakingAt = async (height: number, status?: string): Promise<any[]> =>
  (
    await rest(
      `/cosmos/staking/v1beta1/validators?pagination.limit=1000${status ? `&status=${status}` : ""}`,
      height,
    )
  ).validators;

describe("/validators by validatorJailed and validatorStatuses against the staking module", () => {
  /** At the API's projected height, each filter is exactly the node's set, both orders. */
  const check = async (base: string) => {
    const height = ((await (await fetch(`${base}/blocks/latest`)).json()) as any).height as number;
    const { every: all } = apiReader(() => base);
    const listOf = async (query: string) => {
      const up = await all(`/validators?${query}${query ? "&" : ""}sort=operator_address`);
      const down = await all(`/validators?${query}${query ? "&" : ""}sort=-operator_address`);
      expect(down, query).toEqual([...up].reverse());
      return up;
    };
    const ops = (vs: any[]) => vs.map((v) => v.operator_address as string).sort();
    const nodeAll = await stakingAt(height);
    const listed = await listOf("");
    expect(ops(listed.map((v) => v.validator)), `all at ${height}`).toEqual(ops(nodeAll));
    for (const v of listed) {
      const n = nodeAll.find((x) => x.operator_address === v.validator.operator_address);
      expect
        .soft(
          pick(v.validator, ["status", "jailed", "tokens"]),
          `${v.validator.operator_address} at ${height}`,
        )
        .toEqual(pick(n, ["status", "jailed", "tokens"]));
      expect
        .soft(v.active, `active ${v.validator.operator_address}`)
        .toBe(n.status === "BOND_STATUS_BONDED" && !n.jailed);
    }
    // each filter compared however the others went, so that a failure lists every difference
    for (const jailed of [true, false])
      expect
        .soft(
          ops((await listOf(`validatorJailed=${jailed}`)).map((v) => v.validator)),
          `validatorJailed=${jailed} at ${height}`,
        )
        .toEqual(ops(nodeAll.filter((v) => v.jailed === jailed)));
    for (const s of STATUSES)
      expect
        .soft(
          ops((await listOf(`validatorStatuses=${s}`)).map((v) => v.validator)),
          `validatorStatuses=${s} at ${height}`,
        )
        .toEqual(ops(await stakingAt(height, s)));
    const [a, b] = [STATUSES[1], STATUSES[2]];
    expect
      .soft(
        ops((await listOf(`validatorStatuses=${a},${b}`)).map((v) => v.validator)),
        `validatorStatuses=${a},${b} at ${height}`,
      )
      .toEqual(ops([...(await stakingAt(height, a)), ...(await stakingAt(height, b))]));
    return nodeAll;
  };

  it("at the scenario's last height", async () => {
    expect((await check(api)).length).toBeGreaterThan(1);
  });

  /** The API on a table set of its own, projected up to height `h` (the log's blocks 1 … h). */
  const apiAt = async (name: string, h: number) => {
    const { db } = await ensureCurrentSet(store.ch, name);
    await store.project(db, { untilHeight: h });
    return store.api(name);
  };
  /** The statuses of the validators jailed at `h`, as the node gives them. */
  const jailedAt = async (h: number) =>
    (await stakingAt(h)).filter((v) => v.jailed).map((v) => v.status as string);

  it("while a validator is jailed and unbonding (the height of the unjail that came too early)", async () => {
    const h = scenario.sent.find((s) => s.label === "slashing unjail too early")!.height;
    expect(await jailedAt(h), `jailed at ${h}`).toEqual(["BOND_STATUS_UNBONDING"]);
    await check(await apiAt("jailed", h));
  });

  it("while a validator is jailed, its unbonding over with no event (the height before its unjail)", async () => {
    // (that the ingester reads the set where the unbonding ends: e2e/ingester.test.ts)
    const h = scenario.sent.find((s) => s.label === "slashing unjail")!.height - 1;
    expect(await jailedAt(h), `jailed at ${h}`).toEqual(["BOND_STATUS_UNBONDED"]);
    await check(await apiAt("before_unjail", h));
  });
});

describe("sorts against values recomputed from the node", () => {
  /** Holders of each token with a balance at the top, from balanceOf / ownerOf (and the logs' parties). */
  const holderCounts = async () => {
    const counts = new Map<string, number>();
    for (const c of tokens()) {
      const moves = node.transfers.get(c.address) ?? [];
      // the parties of the logs, and any holder the API knows (a credit without an event)
      const listed = await every(`/token-holders?contractAddress=${c.address}`);
      const holders = new Set<string>();
      if (c.type === "CFC-20") {
        const seen = new Set([
          ...moves.flatMap((t) => [t.from, t.to]),
          ...listed.map((h) => h.address),
        ]);
        for (const a of seen)
          if (a !== ZERO && (await call(c.address, "balanceOf(address)", [a], top())) > 0n)
            holders.add(a);
      } else if (c.type === "CFC-721") {
        for (const id of new Set(moves.map((t) => t.tokenId))) {
          const owner = await ownerOf(c.address, id);
          if (owner !== null) holders.add(owner);
        }
      } else {
        const pairs = new Set([
          ...moves.flatMap((t) => [`${t.from}:${t.tokenId}`, `${t.to}:${t.tokenId}`]),
          ...listed.flatMap((h) => h.tokenIds.map((id: string) => `${h.address}:${id}`)),
        ]);
        for (const p of pairs) {
          const [a, id] = p.split(":") as [string, string];
          if (
            a !== ZERO &&
            (await call(c.address, "balanceOf(address,uint256)", [a, id], top())) > 0n
          )
            holders.add(a);
        }
      }
      counts.set(c.address, holders.size);
    }
    return counts;
  };

  it("/contracts by each sortable field, both ways: the order of the node's values, ties by address", async () => {
    const holders = await holderCounts();
    expect([...holders.values()].some((n) => n > 1)).toBe(true);
    const value: Record<string, (c: NodeContract) => bigint | number | string> = {
      blockNumber: (c) => c.block,
      blockNumberCreate: (c) => c.block,
      timestamp: (c) => c.block,
      name: (c) => c.name ?? "",
      holderCount: (c) => holders.get(c.address) ?? 0,
      transferCount: (c) => node.transfers.get(c.address)?.length ?? 0,
    };
    for (const [field, key] of Object.entries(value)) {
      const orders: string[][] = [];
      for (const desc of [false, true]) {
        const sort = `sort=${desc ? "-" : ""}${field}`;
        const expected = ordered(node.contracts, key, (c) => c.address, desc);
        const listed = await every(`/contracts?${sort}`);
        orders.push(listed.map((c) => c.contractAddress));
        // soft: every sort is compared, so that a failure lists each one that differs
        expect
          .soft(
            listed.map((c) => pick(c, CONTRACT_KEYS)),
            `/contracts?${sort}`,
          )
          .toEqual(
            expected.map((c) => ({
              contractAddress: c.address,
              creatorAddress: c.creator,
              txHashCreate: c.txHash,
              blockNumberCreate: String(c.block),
              ...(c.type ? { tokenType: c.type } : {}),
              ...(c.type && c.name ? { name: c.name } : {}),
            })),
          );
        // the token lists of both families sort the same way, and show the counts sorted by
        for (const [path, keep] of [
          ["/tokens", (c: NodeContract) => c.type !== ""],
          ["/tokens-erc20", (c: NodeContract) => c.type === "CFC-20"],
        ] as const) {
          const docs = await every(`${path}?${sort}`);
          expect
            .soft(
              docs.map((t) => ({
                contractAddress: t.contractAddress,
                holderCount: t.holderCount,
                transferCount: t.transferCount,
              })),
              `${path}?${sort}`,
            )
            .toEqual(
              expected.filter(keep).map((c) => ({
                contractAddress: c.address,
                holderCount: value.holderCount!(c),
                transferCount: value.transferCount!(c),
              })),
            );
        }
      }
      // docs/api.md: ties in the sort's direction too, so sort=-x is always sort=x reversed
      expect
        .soft(orders[1], `/contracts?sort=-${field} is sort=${field} reversed`)
        .toEqual([...orders[0]!].reverse());
    }
  });

  it("/validators by signedBlocks and unsignedBlocks: the commits' signatures over the chain", async () => {
    // block h's last_commit holds the signatures of h-1: blocks 2 … top
    const signed = new Map<string, number>();
    const unsigned = new Map<string, number>();
    const sets = new Map<number, any[]>();
    const setAt = async (h: number) => {
      if (!sets.has(h))
        sets.set(h, (await comet(`/validators?height=${h}&per_page=100`)).validators);
      return sets.get(h)!;
    };
    const heights = Array.from({ length: top() - 1 }, (_, i) => i + 2);
    const commits = await mapLimit(heights, 8, async (h) => ({
      h,
      sigs: (await comet(`/block?height=${h}`)).block.last_commit.signatures as any[],
    }));
    for (const { h, sigs } of commits) {
      for (const [i, s] of sigs.entries()) {
        // an absent validator's entry has no address: the commit lists h-1's set in order
        const address: string = s.validator_address || (await setAt(h - 1))[i]?.address || "";
        if (!address) continue;
        const m = s.block_id_flag === 2 ? signed : unsigned;
        m.set(address, (m.get(address) ?? 0) + 1);
      }
    }
    const consOf = (v: any) =>
      toHex(sha256(fromBase64(v.consensus_pubkey.key)))
        .slice(0, 40)
        .toUpperCase();
    const validators = await stakingAt(top());
    const counts = validators.map((v) => ({
      op: v.operator_address as string,
      signed: signed.get(consOf(v)) ?? 0,
      unsigned: unsigned.get(consOf(v)) ?? 0,
    }));
    // a validator that missed blocks (val1's node was stopped) and one that signed more
    expect(counts.some((c) => c.unsigned > 0)).toBe(true);
    expect(new Set(counts.map((c) => c.signed)).size).toBeGreaterThan(1);
    for (const [field, key] of [
      ["signedBlocks", (c: (typeof counts)[number]) => c.signed],
      ["unsignedBlocks", (c: (typeof counts)[number]) => c.unsigned],
    ] as const) {
      for (const desc of [false, true]) {
        const listed = await every(`/validators?sort=${desc ? "-" : ""}${field}`);
        expect(
          listed.map((v) => ({
            op: v.validator.operator_address,
            signed: v.signedBlocks,
            unsigned: v.unsignedBlocks,
          })),
          `${desc ? "-" : ""}${field}`,
        ).toEqual(ordered(counts, key, (c) => c.op, desc));
      }
    }
  });
});

describe("404 for an address that is no token, 429 past the anonymous rate limit", () => {
  const status = async (base: string, path: string) => {
    const r = await fetch(`${base}${path}`);
    const body = (await r.json()) as any;
    return { status: r.status, body, headers: r.headers };
  };

  it("token paths naming an account or a contract that is no token: 404 with an error", async () => {
    // an account (a token's deployer: no code) and a contract that answers as no token
    const token = tokens()[0]!;
    const account = token.creator;
    expect(await provider.getCode(account, top())).toBe("0x");
    const plain = node.contracts.find((c) => c.type === "")!;
    expect(await provider.getCode(plain.address, top())).not.toBe("0x");
    for (const a of [account, plain.address]) {
      for (const form of [a, bech32(a)]) {
        for (const path of [
          `/tokens/${form}`,
          `/tokens-erc20/${form}`,
          `/token-inventory/${form}/1`,
        ]) {
          const r = await status(api, path);
          expect(r.status, path).toBe(404);
          expect(typeof r.body.error, path).toBe("string");
        }
        for (const list of ["/tokens", "/tokens-erc20", "/token-inventory"])
          expect((await get(`${list}?contractAddress=${form}`)).docs, `${list} ${form}`).toEqual(
            [],
          );
      }
    }
    // a contract is a contract, a token a token: the same paths answer them
    expect((await get(`/contracts/${plain.address}`)).contractAddress).toBe(plain.address);
    expect((await status(api, `/contracts/${account}`)).status).toBe(404);
    for (const path of [`/tokens/${token.address}`, `/tokens-erc20/${bech32(token.address)}`])
      expect(pick(await get(path), TOKEN_KEYS), path).toEqual(asToken(token));
    // an NFT's inventory item is found, the token a CFC-20 contract names is not
    const nft = tokens().find((c) => c.type === "CFC-721")!;
    const id = BigInt(node.nftLogs.get(nft.address)![0]!.topics[3]!);
    expect((await status(api, `/token-inventory/${nft.address}/${id}`)).status).toBe(200);
    const erc20 = tokens().find((c) => c.type === "CFC-20")!;
    expect((await status(api, `/token-inventory/${erc20.address}/1`)).status).toBe(404);
  });

  it("an API with a limit of 5 a minute per IP: the sixth request is a 429 with retry-after", async () => {
    const limited = await store.api("explorer", { rateLimitPerMinute: 5 });
    const path = `/tokens?tokenType=CFC-20`;
    for (let i = 0; i < 5; i++) {
      const r = await status(limited, path);
      expect(r.status, `request ${i + 1}`).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe("5");
      expect(r.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
    }
    const refused = await status(limited, path);
    expect(refused.status).toBe(429);
    expect(typeof refused.body.error).toBe("string");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // any path, the same client: still refused; another instance keeps its own count
    expect((await status(limited, "/blocks/latest")).status).toBe(429);
    expect((await status(api, path)).status).toBe(200);
  });
});
