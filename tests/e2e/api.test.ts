import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi } from "@explorer/api";
import { evmToBech32, keyFromMnemonic } from "@explorer/chain";
import { endpoints, nodePorts, testAccounts } from "@explorer/infra";
import { openClickHouse } from "@explorer/store";
import { Contract, id, JsonRpcProvider, zeroPadValue } from "ethers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiReader, cometReader } from "../lib/api-node.ts";
import { txsNaming } from "../lib/comet.ts";
import { listenLocal } from "../lib/net.ts";
import { runProjector } from "../lib/projector-process.ts";

/**
 * Issue 5 (in part): the REST API over tables projected from the scenario's log, checked against
 * the node (CometBFT RPC, REST, EVM JSON-RPC), not against the projector's own tables.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos");
const settings = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 100_000,
  apiKeys: new Map([["k-test", 100_000]]),
};
let server: Server;
let base: string;
let close: () => Promise<void>;

const get = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${base}/api/1.0${path}`, { headers });
  return { status: r.status, body: (await r.json()) as any };
};
const comet = cometReader(e.cometRpc);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "api-store-"));
  const out: string[] = [];
  expect(
    await runProjector({ LOG_DIR: inject("logDir"), STORE_URL: `chdb:${dir}` }, (l) => out.push(l)),
    out.join(""),
  ).toBe(0);
  const ch = await openClickHouse({ kind: "chdb", path: dir });
  const { app, runtime } = buildApi(ch, "explorer", settings);
  const listening = await listenLocal(app);
  server = listening.server;
  base = `http://127.0.0.1:${listening.port}`;
  close = async () => {
    await new Promise((r) => server.close(r));
    await runtime.dispose();
    await ch.close();
  };
}, 300_000);

afterAll(async () => close?.());

describe("blocks", () => {
  it("latest is the last projected height, with the node's block hash and a proposer", async () => {
    const { body } = await get("/blocks/latest");
    expect(body.height).toBe(scenario.toHeight);
    const node = await comet(`/block?height=${body.height}`);
    expect(body.block_hash).toBe(node.block_id.hash);
    expect(body.proposer.address).toMatch(/^cosmosvaloper1/);
    expect(body.proposer.description.moniker).toBeTruthy();
  });

  it("pages of blocks are contiguous, newest first, and end with hasNext false", async () => {
    const p1 = (await get("/blocks?limit=5")).body;
    expect(p1.docs.map((b: { height: number }) => b.height)).toEqual(
      [0, 1, 2, 3, 4].map((i) => scenario.toHeight - i),
    );
    const last = Math.ceil(scenario.toHeight / 100);
    const end = (await get(`/blocks?limit=100&page=${last}`)).body;
    expect(end.hasNext).toBe(false);
    expect(end.docs.at(-1).height).toBe(1);
    const asc = (await get("/blocks?limit=3&sort=height")).body;
    expect(asc.docs.map((b: { height: number }) => b.height)).toEqual([1, 2, 3]);
    // the record's `timestamp` sorts as its height, on blocks, txs, holders and inventory alike
    for (const list of ["blocks", "txs", "token-holders", "token-inventory"])
      for (const dir of ["", "-"]) {
        const byTime = (await get(`/${list}?limit=7&sort=${dir}timestamp`)).body.docs;
        const field = list === "blocks" || list === "txs" ? "height" : "blockNumber";
        expect(byTime.length, list).toBeGreaterThan(0);
        expect(byTime, `${list} ${dir}timestamp`).toEqual(
          (await get(`/${list}?limit=7&sort=${dir}${field}`)).body.docs,
        );
      }
    const range = (await get(`/blocks?from_height=10&to_height=12&limit=10`)).body;
    expect(range.docs.map((b: { height: number }) => b.height)).toEqual([12, 11, 10]);
  });
});

describe("transactions", () => {
  it("every tx the scenario sent is found by its hash, with the intended outcome", async () => {
    expect(scenario.sent.length).toBeGreaterThan(50);
    for (const s of scenario.sent) {
      const { status, body } = await get(`/txs/${s.hash}`);
      expect(status, s.label).toBe(200);
      expect(body.height).toBe(s.height);
      expect(body.code === 0 ? "success" : "failure", s.label).toBe(s.expect);
      if (s.hash.startsWith("0x")) expect(body.evm_txhashes).toContain(s.hash);
      else expect(body.txhash).toBe(s.hash);
      // Why it failed: the node's log of a Cosmos failure, the EVM error of a reverted call.
      const node = (await comet(`/tx?hash=0x${body.txhash}`)).tx_result;
      if (body.code === 0) expect([body.codespace, body.info], s.label).toEqual(["", node.info]);
      else if (node.code !== 0)
        expect([body.codespace, body.info], s.label).toEqual([node.codespace, node.log]);
      else {
        const vmError = node.events
          .flatMap((ev: any) => (ev.type === "ethereum_tx" ? ev.attributes : []))
          .find((a: any) => a.key === "ethereumTxFailed")?.value;
        expect(vmError, s.label).toBeTruthy();
        expect([body.codespace, body.info], s.label).toEqual(["evm", vmError]);
      }
    }
  });

  it("filters: address (either form), messageType, existsEVM, height range", async () => {
    for (const form of [alice.bech32, alice.evm]) {
      const { body } = await get(`/txs?address=${form}&limit=100`);
      expect(body.docs.length).toBeGreaterThan(3);
      for (const t of body.docs) expect(t.addresses).toContain(alice.bech32);
    }
    const sends = (await get("/txs?messageType=/cosmos.bank.v1beta1.MsgSend&limit=100")).body.docs;
    expect(
      sends.every((t: any) =>
        t.body.messages.some((m: any) => m["@type"] === "/cosmos.bank.v1beta1.MsgSend"),
      ),
    ).toBe(true);
    expect(sends.map((t: any) => t.txhash)).toContain(
      scenario.sent.find((s) => s.label === "bank send")!.hash,
    );
    const evm = (await get("/txs?existsEVM=true&limit=100")).body.docs;
    expect(evm.length).toBeGreaterThan(10);
    expect(evm.every((t: any) => t.isEVM)).toBe(true);
    const cosmosOnly = (await get("/txs?existsEVM=false&limit=100")).body.docs;
    expect(cosmosOnly.length).toBeGreaterThan(10);
    expect(cosmosOnly.every((t: any) => !t.isEVM)).toBe(true);
    const first = scenario.sent[0]!;
    const atH = (await get(`/txs?height=${first.height}`)).body.docs;
    expect(atH.every((t: any) => t.height === first.height)).toBe(true);
    expect(atH.map((t: any) => t.txhash).sort()).toEqual(
      ((await comet(`/block?height=${first.height}`)).block.data.txs as string[])
        .map((tx) => createHash("sha256").update(Buffer.from(tx, "base64")).digest("hex"))
        .map((h) => h.toUpperCase())
        .sort(),
    );
  });

  it("an account's txs and token transfers: all that the node's indexes name it in", async () => {
    const { every } = apiReader(() => `${base}/api/1.0`);
    // CometBFT's event index: the txs in which alice sent a message, or sent or received coins
    // (every tx she signs pays its fee: EVM ones too).
    const named = new Set((await txsNaming(e.cometRpc, alice.bech32)).keys());
    expect(named.size).toBeGreaterThan(10);
    const mine = new Set((await every(`/txs?address=${alice.evm}`)).map((t) => t.txhash));
    expect([...named].filter((h) => !mine.has(h))).toEqual([]);
    // Token transfers from and to alice: the node's Transfer, TransferSingle and TransferBatch
    // logs with her address in the from or to topic.
    const me = zeroPadValue(alice.evm.toLowerCase(), 32);
    // the events' topics from their signatures, not from the code under test
    const TRANSFER = id("Transfer(address,address,uint256)");
    const SINGLE = id("TransferSingle(address,address,address,uint256,uint256)");
    const BATCH = id("TransferBatch(address,address,address,uint256[],uint256[])");
    const logs = new Set<string>();
    for (const topics of [
      [TRANSFER, me],
      [TRANSFER, null, me],
      [[SINGLE, BATCH], null, me],
      [[SINGLE, BATCH], null, null, me],
    ])
      for (const l of await provider.getLogs({ fromBlock: 1, toBlock: scenario.toHeight, topics }))
        logs.add(`${l.transactionHash}-${l.index}`);
    expect(logs.size).toBeGreaterThan(0);
    const transfers = await every(`/token-transfers?address=${alice.bech32}`);
    // uniqueHash: the tx hash, the log's index in the block, the transfer's place in a batch
    expect(new Set(transfers.map((t) => t.uniqueHash.split("-").slice(0, 2).join("-")))).toEqual(
      logs,
    );
  });

  it("paging through every tx gives each once, and the count equals the chain's", async () => {
    let nodeCount = 0;
    for (let h = 1; h <= scenario.toHeight; h += 1)
      nodeCount += Number((await comet(`/block?height=${h}`)).block.data.txs?.length ?? 0);
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const { body } = await get(`/txs?limit=13&page=${page}`);
      for (const t of body.docs) seen.add(t.txhash);
      if (!body.hasNext) break;
    }
    expect(seen.size).toBe(nodeCount);
    expect((await get("/stat")).body.totalTransactions).toBe(nodeCount);
  }, 120_000);
});

describe("accounts and validators", () => {
  it("an address in either form: the node's balances and delegations at its height", async () => {
    for (const form of [alice.bech32, alice.evm]) {
      const { body } = await get(`/addresses/${form}`);
      expect(body.mx).toBe(alice.bech32);
      expect(body.evm).toBe(alice.evm);
      const bank = await (
        await fetch(`${e.rest}/cosmos/bank/v1beta1/balances/${alice.bech32}`, {
          headers: { "x-cosmos-block-height": String(body.blockNumber) },
        })
      ).json();
      expect(body.coins).toEqual((bank as { balances: unknown }).balances);
      // alice delegates (the scenario): her rewards are the node's at the record's height.
      const rewards = (await (
        await fetch(`${e.rest}/cosmos/distribution/v1beta1/delegators/${alice.bech32}/rewards`, {
          headers: { "x-cosmos-block-height": String(body.blockNumber) },
        })
      ).json()) as { rewards: unknown[] };
      expect(rewards.rewards.length).toBeGreaterThan(0);
      expect(body.rewards).toEqual(rewards);
      expect((await get(`/addresses/${form}?withoutRewards=true`)).body.rewards).toBeUndefined();
    }
  });

  it("stat: the node's community pool at the projected height, as integer Coins", async () => {
    const { body } = await get("/stat");
    const h = (await get("/blocks/latest")).body.height;
    const node = (await (
      await fetch(`${e.rest}/cosmos/distribution/v1beta1/community_pool`, {
        headers: { "x-cosmos-block-height": String(h) },
      })
    ).json()) as { pool: { denom: string; amount: string }[] };
    expect(node.pool.length).toBeGreaterThan(0);
    expect(body.communityPool).toEqual(
      node.pool.map((c) => ({ denom: c.denom, amount: c.amount.split(".")[0] })),
    );
    for (const c of body.communityPool) expect(c.amount).toMatch(/^\d+$/);
  });

  it("the rich list is ordered by the coin, any case of its symbol", async () => {
    const { body } = await get("/addresses/rich-list/TEST?limit=5");
    const amounts = body.docs.map((a: any) => BigInt(a.holdCoins.atest));
    expect([...amounts].sort((x, y) => (y > x ? 1 : y < x ? -1 : 0))).toEqual(amounts);
    expect((await get("/addresses/rich-list/test?limit=5")).body.docs.length).toBe(
      body.docs.length,
    );
    expect((await get("/addresses/rich-list/doge")).status).toBe(400);
    // Ascending: the smallest holders first, none of them at zero.
    const up = (await get("/addresses/rich-list/TEST?limit=5&sort=balance")).body.docs.map(
      (a: any) => BigInt(a.holdCoins.atest),
    );
    expect(up.length).toBeGreaterThan(1);
    expect([...up].sort((x, y) => (x > y ? 1 : x < y ? -1 : 0))).toEqual(up);
    expect(up[0]! > 0n).toBe(true);
    expect(up[0]! <= amounts.at(-1)!).toBe(true);
    expect((await get("/addresses/rich-list/TEST?sort=-bogus")).status).toBe(400);
  });

  it("validators: both, with signed and missed blocks; filters by status, jailed and address", async () => {
    const { body } = await get("/validators");
    expect(body.docs.length).toBe(2);
    for (const v of body.docs) {
      const r = await fetch(
        `${e.rest}/cosmos/staking/v1beta1/validators/${v.validator.operator_address}`,
        { headers: { "x-cosmos-block-height": String(scenario.toHeight) } },
      );
      const node = ((await r.json()) as any).validator;
      expect({
        tokens: v.validator.tokens,
        jailed: v.validator.jailed,
        status: v.validator.status,
      }).toEqual({ tokens: node.tokens, jailed: node.jailed, status: node.status });
    }
    // Signed and missed blocks, counted from the node's commits: block H's last_commit signs H-1,
    // in the order of H-1's validator set (an absent validator's entry has no address).
    const counts = new Map<string, { signed: number; missed: number }>();
    const byKey = new Map<string, string>(); // consensus key → address, over every set seen
    for (let h = 2; h <= scenario.toHeight; h++) {
      const sigs = (await comet(`/block?height=${h}`)).block.last_commit.signatures as {
        block_id_flag: number;
        validator_address: string;
      }[];
      const set = (await comet(`/validators?height=${h - 1}&per_page=100`)).validators as {
        address: string;
        pub_key: { value: string };
      }[];
      for (const v of set) byKey.set(v.pub_key.value, v.address);
      for (const [i, sig] of sigs.entries()) {
        const address = set[i]!.address;
        if (sig.validator_address) expect(sig.validator_address).toBe(address);
        const c = counts.get(address) ?? { signed: 0, missed: 0 };
        if (sig.block_id_flag === 2) c.signed++;
        else c.missed++;
        counts.set(address, c);
      }
    }
    for (const v of body.docs) {
      const node = counts.get(byKey.get(v.validator.consensus_pubkey.key)!);
      expect(node, v.validator.operator_address).toBeDefined();
      expect(
        { signed: v.signedBlocks, missed: v.unsignedBlocks },
        v.validator.operator_address,
      ).toEqual(node);
    }
    expect(body.docs.some((v: any) => v.unsignedBlocks > 0)).toBe(true); // val1 missed blocks when its node stopped
    // Commission not yet withdrawn, as the node gives it at the projected height. The scenario's
    // val0 withdrew its commission: a sum of the blocks' allocations alone would be too high.
    const top = (await get("/blocks/latest")).body.height;
    for (const v of body.docs) {
      const r = await fetch(
        `${e.rest}/cosmos/distribution/v1beta1/validators/${v.validator.operator_address}/commission`,
        { headers: { "x-cosmos-block-height": String(top) } },
      );
      const node = ((await r.json()) as any).commission.commission;
      expect(node.length).toBeGreaterThan(0);
      expect(v.unclaimed, v.validator.operator_address).toEqual(node);
    }
    const op = body.docs[0].validator.operator_address;
    expect((await get(`/validators/${op}`)).body.validator.operator_address).toBe(op);
    // by its operator's account too, in either form
    const { mxAddress, hexAddress } = body.docs[0].validator;
    // search names a validator by its operator address; the operator's account is an account
    expect((await get(`/search?value=${op}`)).body.kind).toBe("validator");
    for (const named of [mxAddress, hexAddress])
      expect((await get(`/search?value=${named}`)).body.kind).not.toBe("validator");
    for (const named of [mxAddress, hexAddress, hexAddress.toLowerCase()]) {
      expect((await get(`/validators/${named}`)).body.validator.operator_address).toBe(op);
      const found = (await get(`/validators?addresses=${named}`)).body.docs;
      expect(found.map((v: any) => v.validator.operator_address)).toEqual([op]);
      const rest = (await get(`/validators?ninAddresses=${named}&limit=100`)).body.docs;
      expect(rest.length).toBe(body.docs.length - 1);
    }
    expect(
      (await get(`/validators?ninAddresses=${op}`)).body.docs.map(
        (v: any) => v.validator.operator_address,
      ),
    ).not.toContain(op);
    const bonded = (await get("/validators?validatorStatuses=BOND_STATUS_BONDED")).body.docs;
    expect(bonded.length).toBeGreaterThan(0);
    expect(bonded.every((v: any) => v.validator.status === "BOND_STATUS_BONDED")).toBe(true);
  });
});

describe("tokens", () => {
  it("family A is CFC-20, family B every type; both find a token by address", async () => {
    const a = (await get("/tokens-erc20?limit=100")).body.docs;
    expect(a.map((t: any) => t.contractAddress)).toContain(
      scenario.contracts.TestToken!.toLowerCase(),
    );
    expect(a.every((t: any) => t.tokenType === "CFC-20")).toBe(true);
    const all = (await get("/tokens?limit=100")).body;
    expect(all.hasNext).toBe(false);
    const b = all.docs;
    expect(new Set(b.map((t: any) => t.tokenType))).toEqual(
      new Set(["CFC-20", "CFC-721", "ERC-1155"]),
    );
    // The record's own names for the creation order sort as blockNumber does.
    const order = (sort: string) =>
      get(`/tokens?limit=100&sort=${sort}`).then((r) =>
        r.body.docs.map((t: any) => t.contractAddress),
      );
    const byBlock = await order("blockNumber");
    expect(byBlock).toEqual(b.map((t: any) => t.contractAddress).reverse());
    expect(await order("blockNumberCreate")).toEqual(byBlock);
    expect(await order("-timestamp")).toEqual([...byBlock].reverse());
    // totalSupply is always an integer; a token without totalSupply() (the ERC-1155) gets the sum
    // of its holders' balances, each asked of the node
    expect(b.every((t: any) => /^\d+$/.test(t.totalSupply))).toBe(true);
    const multi = b.find((t: any) => t.tokenType === "ERC-1155")!;
    const multiHolders = (
      await get(`/token-holders?contractAddress=${multi.contractAddress}&limit=100`)
    ).body.docs;
    expect(multiHolders.length).toBeGreaterThan(0);
    const multiToken = new Contract(
      multi.contractAddress,
      ["function balanceOf(address,uint256) view returns (uint256)"],
      provider,
    );
    let units = 0n;
    for (const h of multiHolders)
      units += BigInt(
        await multiToken.getFunction("balanceOf")(h.address, BigInt(h.tokenIds[0]), {
          blockTag: scenario.toHeight,
        }),
      );
    expect(multi.totalSupply).toBe(String(units));
    expect((await get(`/contracts/${multi.contractAddress}`)).body.totalSupply).toBe(String(units));
    const addr = scenario.contracts.TestToken!.toLowerCase();
    for (const path of [`/tokens/${addr}`, `/tokens-erc20/${addr}`]) {
      const t = (await get(path)).body;
      expect(t).toMatchObject({
        contractAddress: addr,
        tokenType: "CFC-20",
        symbol: "SCN",
        decimals: 18,
      });
    }
  });

  it("transfers of a token match its Transfer logs; holders match balanceOf, non-standard token included", async () => {
    const token = scenario.contracts.TestToken!.toLowerCase();
    const logs = await provider.getLogs({
      address: token,
      fromBlock: 1,
      toBlock: scenario.toHeight,
      topics: [id("Transfer(address,address,uint256)")],
    });
    const transfers = (await get(`/token-transfers?contractAddress=${token}&limit=100`)).body.docs;
    expect(transfers.length).toBe(logs.length);
    expect(
      (await get(`/token-erc20-transfers?contractAddress=${token}&limit=100`)).body.docs.length,
    ).toBe(logs.length);
    const fot = scenario.contracts.FeeToken!.toLowerCase();
    const holders = (await get(`/token-holders?contractAddress=${fot}&limit=100`)).body.docs;
    expect(holders.length).toBeGreaterThan(1);
    const c = new Contract(fot, ["function balanceOf(address) view returns (uint256)"], provider);
    for (const h of holders)
      expect(h.balance).toBe(
        String(await c.getFunction("balanceOf")(h.address, { blockTag: h.blockNumber })),
      );
  });

  it("inventory: owners, tokenURIs and fetched metadata", async () => {
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const item = (await get(`/token-inventory/${nft}/2`)).body;
    expect(item.tokenURI).toMatch(/-v2\/2\.json$/);
    expect(item.metadata.name).toMatch(/#2$/);
    const c = new Contract(nft, ["function ownerOf(uint256) view returns (address)"], provider);
    expect(item.ownerAddress).toBe(String(await c.getFunction("ownerOf")(2)).toLowerCase());
    const list = (await get(`/token-inventory?contractAddress=${nft}`)).body.docs;
    expect(list.length).toBeGreaterThanOrEqual(3);
  });

  it("a contract's address in its bech32 form, and a token id with leading zeros, find the same records", async () => {
    const token = scenario.contracts.TestToken!.toLowerCase();
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const [tokenB32, nftB32] = [evmToBech32(token, "cosmos"), evmToBech32(nft, "cosmos")];
    const same = async (path: string, other: string) => {
      const [a, b] = [await get(path), await get(other)];
      if (Array.isArray(a.body.docs)) expect(a.body.docs.length, path).toBeGreaterThan(0);
      expect([other, b.status]).toEqual([other, 200]);
      expect(b.body, other).toEqual(a.body);
    };
    await same(`/tokens/${token}`, `/tokens/${tokenB32}`);
    await same(`/tokens-erc20/${token}`, `/tokens-erc20/${tokenB32.toUpperCase()}`);
    await same(`/contracts/${token}`, `/contracts/${tokenB32}`);
    await same(`/contracts?contractAddress=${token}`, `/contracts?contractAddress=${tokenB32}`);
    await same(
      `/token-transfers?contractAddress=${token}&limit=100`,
      `/token-transfers?contractAddress=${tokenB32}&limit=100`,
    );
    await same(
      `/token-holders?contractAddress=${token}&limit=100`,
      `/token-holders?contractAddress=${tokenB32}&limit=100`,
    );
    await same(
      `/event-logs?contractAddress=${token}&limit=100`,
      `/event-logs?contractAddress=${tokenB32}&limit=100`,
    );
    await same(`/token-inventory/${nft}/2`, `/token-inventory/${nftB32}/002`);
    await same(
      `/token-inventory?contractAddress=${nft}&tokenIds=1,2`,
      `/token-inventory?contractAddress=${nftB32}&tokenIds=01,0002`,
    );
    await same(
      `/token-transfers?contractAddress=${nft}&tokenType=CFC-721&tokenId=2`,
      `/token-transfers?contractAddress=${nftB32}&tokenType=CFC-721&tokenId=02`,
    );
    // A transaction by its Cosmos hash finds what its EVM hash finds.
    const [log] = (await get(`/event-logs?contractAddress=${token}&limit=1`)).body.docs;
    const cosmosOf = async (evm: string) => (await get(`/txs/${evm}`)).body.txhash as string;
    const logTx = await cosmosOf(log.transactionHash);
    expect(logTx).toMatch(/^[0-9A-F]{64}$/);
    await same(
      `/event-logs?transactionHash=${log.transactionHash}`,
      `/event-logs?transactionHash=${logTx.toLowerCase()}`,
    );
    await same(
      `/token-transfers?txHash=${log.transactionHash}`,
      `/token-transfers?txHash=${logTx}`,
    );
    const created = (await get(`/contracts/${token}`)).body.txHashCreate;
    await same(`/contracts?txHash=${created}`, `/contracts?txHash=${await cosmosOf(created)}`);
    await same(
      `/tokens?txHashCreate=${created}`,
      `/tokens?txHashCreate=${await cosmosOf(created)}`,
    );
    // a hash no transaction has, in either form: nothing
    for (const none of ["AB".repeat(32), `0x${"ab".repeat(32)}`])
      expect((await get(`/token-transfers?txHash=${none}`)).body.docs).toEqual([]);
    // Another chain's prefix is not this chain's address.
    expect((await get(`/tokens/${evmToBech32(token, "osmo")}`)).status).toBe(400);
  });
});

describe("every other filter, checked against the node", () => {
  it("event logs: by contract, origin, transaction, block hash, block number and log index in the tx", async () => {
    const token = scenario.contracts.TestToken!.toLowerCase();
    const onChain = await provider.getLogs({
      address: token,
      fromBlock: 1,
      toBlock: scenario.toHeight,
    });
    const byContract = (
      await get(`/event-logs?contractAddress=${token}&limit=100&sort=blockNumber`)
    ).body.docs;
    expect(byContract.map((l: any) => [l.transactionHash, l.logIndex])).toEqual(
      onChain.map((l) => [l.transactionHash, l.index]),
    );
    const first = onChain[0]!;
    const receipt = (await provider.getTransactionReceipt(first.transactionHash))!;
    for (const q of [
      `transactionHash=${first.transactionHash}`,
      `blockHash=${first.blockHash}`,
      `blockNumber=${first.blockNumber}`,
      `originAddress=${receipt.from.toLowerCase()}`,
      `originAddress=${evmToBech32(receipt.from, "cosmos")}`, // an account: either form
    ]) {
      const docs = (await get(`/event-logs?${q}&limit=100`)).body.docs;
      expect(
        docs.map((l: any) => l.transactionHash),
        q,
      ).toContain(first.transactionHash);
    }
    // transactionIndex, as a filter and in the record, is the log's place in its transaction
    // (the SPEC's "log index in the transaction"): checked on a transaction with several logs.
    const all = await provider.getLogs({ fromBlock: 1, toBlock: scenario.toHeight });
    const many = all.find(
      (l) => all.filter((x) => x.transactionHash === l.transactionHash).length > 1,
    )!;
    const receiptLogs = (await provider.getTransactionReceipt(many.transactionHash))!.logs;
    const ofTx = (await get(`/event-logs?transactionHash=${many.transactionHash}&sort=logIndex`))
      .body.docs;
    expect(ofTx.map((l: any) => [l.logIndex, l.transactionIndex])).toEqual(
      receiptLogs.map((l, i) => [l.index, i]),
    );
    for (const [i, l] of receiptLogs.entries()) {
      const one = (
        await get(`/event-logs?transactionHash=${many.transactionHash}&transactionIndex=${i}`)
      ).body.docs;
      expect(one.map((x: any) => [x.logIndex, x.transactionIndex])).toEqual([[l.index, i]]);
    }
    const second = (await get("/event-logs?transactionIndex=1&limit=100")).body.docs;
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((l: any) => l.transactionIndex === 1)).toBe(true);
  });

  it("contracts: by address, creator, creating tx, block, token type", async () => {
    const factory = scenario.contracts.Factory!.toLowerCase();
    const c = (await get(`/contracts/${factory}`)).body;
    const creation = scenario.sent.find((s) => s.label === "evm deploy Factory")!;
    expect(c).toMatchObject({
      contractAddress: factory,
      txHashCreate: creation.hash,
      blockNumber: creation.height,
    });
    expect(c.bytecode).toBe(await provider.getCode(factory, creation.height));
    const byCreator = (await get(`/contracts?creatorAddress=${factory}`)).body.docs;
    expect(byCreator.length).toBeGreaterThanOrEqual(2); // the children it created
    expect(
      (await get(`/contracts?creatorAddress=${evmToBech32(factory, "cosmos")}`)).body.docs,
    ).toEqual(byCreator);
    expect(
      (await get(`/contracts?txHash=${creation.hash}`)).body.docs.map(
        (x: any) => x.contractAddress,
      ),
    ).toEqual([factory]);
    expect(
      (await get(`/contracts?blockNumber=${creation.height}`)).body.docs.map(
        (x: any) => x.contractAddress,
      ),
    ).toContain(factory);
    const nfts = (await get("/contracts?tokenType=CFC-721")).body.docs;
    expect(nfts.map((x: any) => x.contractAddress)).toContain(
      scenario.contracts.TestNFT!.toLowerCase(),
    );
    expect(nfts.every((x: any) => x.tokenType === "CFC-721")).toBe(true);
  });

  it("holders by address and token type; inventory by owner, creator and token ids", async () => {
    const grace = "0xb6508e66fe5f1eb2f67a10bf54b5e651bf894a12";
    const mine = (await get(`/token-holders?address=${grace}&limit=100`)).body.docs;
    expect(mine.length).toBeGreaterThan(0);
    for (const h of mine) {
      const c = new Contract(
        h.contractAddress,
        h.tokenType === "ERC-1155"
          ? ["function balanceOf(address,uint256) view returns (uint256)"]
          : ["function balanceOf(address) view returns (uint256)"],
        provider,
      );
      const args = h.tokenType === "ERC-1155" ? [grace, BigInt(h.tokenIds[0])] : [grace];
      expect(h.balance).toBe(
        String(await c.getFunction("balanceOf")(...args, { blockTag: h.blockNumber })),
      );
    }
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const owned = (await get(`/token-inventory?ownerAddress=${grace}&contractAddress=${nft}`)).body
      .docs;
    const c = new Contract(nft, ["function ownerOf(uint256) view returns (address)"], provider);
    expect(owned.length).toBeGreaterThan(0);
    for (const t of owned)
      expect(String(await c.getFunction("ownerOf")(BigInt(t.tokenId))).toLowerCase()).toBe(grace);
    const byIds = (await get(`/token-inventory?contractAddress=${nft}&tokenIds=1,2`)).body.docs;
    expect(byIds.map((t: any) => t.tokenId).sort()).toEqual(["1", "2"]);
    const creator = (await get(`/contracts/${nft}`)).body.creatorAddress;
    const byNftCreator = (await get(`/token-inventory?creatorAddress=${creator}&limit=100`)).body
      .docs;
    expect(byNftCreator.length).toBeGreaterThanOrEqual(byIds.length);
    expect(
      (await get(`/token-inventory?creatorAddress=${evmToBech32(creator, "cosmos")}&limit=100`))
        .body.docs,
    ).toEqual(byNftCreator);
  });

  it("addresses by address list and validator; validators by address; sorts both ways", async () => {
    const bob = keyFromMnemonic(testAccounts.bob.mnemonic, "cosmos");
    const two = (await get(`/addresses?addresses=${alice.bech32},${bob.evm}`)).body.docs
      .map((a: any) => a.mx)
      .sort();
    expect(two).toEqual([alice.bech32, bob.bech32].sort());
    const vals = (await get("/validators")).body.docs;
    const op = vals[0].validator.operator_address;
    // its delegators, as the node lists them at the projected height (the operator among them)
    const top = (await get("/blocks/latest")).body.height;
    for (const v of vals) {
      const valoper = v.validator.operator_address;
      const delegators = (await get(`/addresses?validatorAddress=${valoper}&limit=100`)).body.docs
        .map((a: any) => a.mx)
        .sort();
      const node = (await (
        await fetch(`${e.rest}/cosmos/staking/v1beta1/validators/${valoper}/delegations`, {
          headers: { "x-cosmos-block-height": String(top) },
        })
      ).json()) as { delegation_responses: { delegation: { delegator_address: string } }[] };
      expect(delegators, valoper).toEqual(
        node.delegation_responses.map((d) => d.delegation.delegator_address).sort(),
      );
      expect(delegators).toContain(v.validator.mxAddress);
    }
    expect(
      (await get(`/validators?address=${op}`)).body.docs.map(
        (v: any) => v.validator.operator_address,
      ),
    ).toEqual([op]);
    const asc = (await get("/validators?sort=tokens")).body.docs.map((v: any) =>
      BigInt(v.validator.tokens),
    );
    const desc = (await get("/validators?sort=-tokens")).body.docs.map((v: any) =>
      BigInt(v.validator.tokens),
    );
    expect(asc).toEqual([...desc].reverse());
    // Accounts by the record's `mx` (an alias of `address`), both ways.
    const byMx = (await get("/addresses?sort=mx&limit=100")).body;
    expect(byMx.hasNext).toBe(false); // one page holds them all: the reverse is comparable
    const mx = byMx.docs.map((a: any) => a.mx);
    expect(mx).toEqual([...mx].sort());
    expect(
      (await get("/addresses?sort=-address&limit=100")).body.docs.map((a: any) => a.mx),
    ).toEqual([...mx].reverse());
  });
});

describe("sorting both ways", () => {
  // Each list in one order is the other order reversed, records with equal sort values (ties)
  // included: a list breaks ties in the sort's own direction. Each case must have ties.
  const cases: [string, string, (d: any) => string, (d: any) => string][] = [
    ["/addresses?limit=100", "blockNumber", (a) => a.mx, (a) => String(a.blockNumber)],
    [
      "/token-holders?limit=100",
      "blockNumber",
      (h) => `${h.contractAddress}/${h.address}/${h.tokenIds}`,
      (h) => String(h.blockNumber),
    ],
  ];
  it.each(cases)("%s by %s", async (path, field, id, value) => {
    const up = (await get(`${path}&sort=${field}`)).body;
    const down = (await get(`${path}&sort=-${field}`)).body;
    expect(up.hasNext).toBe(false); // one page holds them all
    const values = up.docs.map(value);
    expect(new Set(values).size, `ties in ${values}`).toBeLessThan(values.length);
    expect(down.docs.map(id)).toEqual([...up.docs.map(id)].reverse());
  });
});

describe("search and errors", () => {
  it("search says which kind it found", async () => {
    expect((await get(`/search?value=${scenario.fromHeight}`)).body.kind).toBe("block");
    const tx = await get(`/search?value=${scenario.sent[0]!.hash}`);
    expect(tx.body.kind).toBe("transaction");
    // The record unchanged: as /txs/{hash} answers it.
    expect(tx.body.record).toEqual((await get(`/txs/${scenario.sent[0]!.hash}`)).body);
    const account = (await get(`/search?value=${alice.evm}`)).body;
    expect(account.kind).toBe("address");
    expect(account.record).toEqual((await get(`/addresses/${alice.evm}`)).body); // rewards too
    expect((await get(`/search?value=${scenario.contracts.TestToken}`)).body.kind).toBe("token");
    expect((await get(`/search?value=${scenario.contracts.Factory}`)).body.kind).toBe("contract");
    expect((await get("/search?value=scn")).body.record.symbol).toBe("SCN");
    expect((await get("/search?value=nothing-like-this")).status).toBe(404);
    // Either form of an address, and 0X for 0x, find the same record.
    for (const [name, kind] of [
      ["TestToken", "token"],
      ["Factory", "contract"],
    ] as const) {
      const evm = scenario.contracts[name]!.toLowerCase();
      for (const form of [evmToBech32(evm, "cosmos"), `0X${evm.slice(2)}`]) {
        const found = (await get(`/search?value=${form}`)).body;
        expect([form, found.kind, found.record.contractAddress]).toEqual([form, kind, evm]);
      }
    }
    expect((await get(`/search?value=0X${alice.evm.slice(2)}`)).body.kind).toBe("address");
    // An NFT: `<contract>/<token id>` or `<contract>#<token id>`, the contract in either form,
    // answered as /token-inventory/{contract}/{tokenId} answers it (the SPEC's sample answer).
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const item = (await get(`/token-inventory/${nft}/2`)).body;
    for (const value of [`${nft}/2`, `${evmToBech32(nft, "cosmos")}%232`, `${nft}%20%23002`]) {
      const found = (await get(`/search?value=${value}`)).body;
      expect([value, found.kind]).toEqual([value, "inventory"]);
      expect(found.record).toEqual(item);
    }
    // a token the NFT never minted, and a fungible token's "token id": nothing
    for (const value of [`${nft}/987654321`, `${scenario.contracts.TestToken!.toLowerCase()}/1`])
      expect([value, (await get(`/search?value=${value}`)).status]).toEqual([value, 404]);
    // Something shaped like an address or a hash that names nothing is not found, not malformed.
    for (const value of ["cosmos1xxx", "cosmosvaloper1xxxx", `0x${"0".repeat(40)}`])
      expect([value, (await get(`/search?value=${value}`)).status]).toEqual([value, 404]);
  });

  it("bad input is a 400 with {error}; unknown records 404; an unknown API key 401", async () => {
    for (const path of [
      "/blocks?limit=0",
      "/blocks?limit=101",
      "/blocks?page=-1",
      "/txs?sort=-fee",
      "/txs/xyz",
      "/addresses/cosmos1bad",
      "/txs?address=0x123",
      "/txs?messageType=MsgSend",
      "/validators?validatorJailed=maybe",
      "/event-logs?contractAddress=zz",
      "/token-transfers?tokenType=ERC-777",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(400);
      expect(typeof r.body.error, path).toBe("string");
    }
    expect((await get("/blocks?page=9999999999999999")).body.error).toBe(
      "page is too large (at most 15 digits)",
    );
    expect((await get(`/blocks/${scenario.toHeight + 1000}`)).status).toBe(404);
    expect((await get(`/txs/${"A".repeat(64)}`)).status).toBe(404);
    expect((await get("/blocks/latest", { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await get("/blocks/latest", { authorization: "Bearer k-test" })).status).toBe(200);
  });
});
