import { endpoints, nodePorts } from "@explorer/infra";
import { Contract, id, JsonRpcProvider, zeroPadValue } from "ethers";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { attr, type ChainTx, readBlockEvents, readChainTxs } from "../lib/comet.ts";

/**
 * Issue 2's acceptance: by reading the chain's own blocks and results (not the scenario's word),
 * every message type and token standard the scenario promises appears, succeeded or failed as
 * intended.
 */
const scenario = inject("scenario");
const e = endpoints(nodePorts(0));
const provider = new JsonRpcProvider(e.evmRpc, 262144, { staticNetwork: true });
let txs: ChainTx[] = [];

beforeAll(async () => {
  // From height 1: create-validator happens only on the chain's first scenario run.
  txs = await readChainTxs(e.cometRpc, 1, scenario.toHeight);
});

const outcomes = (typeUrl: string) => {
  const hits = txs.filter((t) => t.typeUrls.includes(typeUrl));
  return {
    ok: hits.filter((t) => t.code === 0).length,
    failed: hits.filter((t) => t.code !== 0).length,
  };
};

describe("Cosmos message types on chain", () => {
  const succeeded = [
    "/cosmos.bank.v1beta1.MsgSend",
    "/cosmos.bank.v1beta1.MsgMultiSend",
    "/cosmos.authz.v1beta1.MsgGrant",
    "/cosmos.authz.v1beta1.GenericAuthorization",
    "/cosmos.bank.v1beta1.SendAuthorization",
    "/cosmos.staking.v1beta1.StakeAuthorization",
    "/cosmos.authz.v1beta1.MsgRevoke",
    "/cosmos.authz.v1beta1.MsgExec",
    "/cosmos.distribution.v1beta1.MsgFundCommunityPool",
    "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress",
    "/cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward",
    "/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission",
    "/cosmos.gov.v1.MsgSubmitProposal",
    "/cosmos.gov.v1.MsgDeposit",
    "/cosmos.gov.v1.MsgVote",
    "/cosmos.gov.v1.MsgVoteWeighted",
    "/cosmos.feegrant.v1beta1.MsgGrantAllowance",
    "/cosmos.feegrant.v1beta1.BasicAllowance",
    "/cosmos.feegrant.v1beta1.PeriodicAllowance",
    "/cosmos.feegrant.v1beta1.MsgRevokeAllowance",
    "/cosmos.staking.v1beta1.MsgCreateValidator",
    "/cosmos.staking.v1beta1.MsgEditValidator",
    "/cosmos.staking.v1beta1.MsgDelegate",
    "/cosmos.staking.v1beta1.MsgBeginRedelegate",
    "/cosmos.staking.v1beta1.MsgUndelegate",
    "/cosmos.slashing.v1beta1.MsgUnjail",
    "/cosmos.evm.vm.v1.MsgEthereumTx",
  ];
  it.each(succeeded)("%s appears in a successful tx", (typeUrl) => {
    expect(outcomes(typeUrl).ok).toBeGreaterThan(0);
  });

  const failed = {
    "/cosmos.bank.v1beta1.MsgSend": 5, // insufficient funds
    "/cosmos.gov.v1.MsgVoteWeighted": 7, // weights do not sum to 1 (gov ErrInvalidVote)
    "/cosmos.slashing.v1beta1.MsgUnjail": 4, // jail period not over
  };
  it.each(Object.entries(failed))("%s also appears failed with code %i", (typeUrl, code) => {
    const hits = txs.filter((t) => t.typeUrls.includes(typeUrl) && t.code === code);
    expect(hits.length).toBeGreaterThan(0);
  });

  it("every tx the scenario sent is in its block with the intended outcome", () => {
    expect(scenario.sent.length).toBeGreaterThan(50);
    for (const s of scenario.sent) {
      const isEvm = s.hash.startsWith("0x");
      const tx = isEvm
        ? txs.find(
            (t) => t.height === s.height && attr(t, "ethereum_tx", "ethereumTxHash") === s.hash,
          )
        : txs.find((t) => t.hash === s.hash);
      expect(tx, `${s.label} (${s.hash}) at ${s.height}`).toBeDefined();
      // The ante handler emits a first ethereum_tx event; the execution result is in the second.
      const failed = isEvm
        ? tx!.events.some(
            (ev) =>
              ev.type === "ethereum_tx" && ev.attributes.some((a) => a.key === "ethereumTxFailed"),
          )
        : tx!.code !== 0;
      expect(failed ? "failure" : "success", s.label).toBe(s.expect);
    }
  });

  it("a validator that stopped signing was jailed for downtime, then unjailed", async () => {
    const events = await readBlockEvents(e.cometRpc, scenario.fromHeight, scenario.toHeight, [
      "slash",
    ]);
    const jail = events.find(
      (x) => x.attributes.reason === "missing_signature" && x.attributes.jailed,
    );
    expect(jail, "a slash event with reason missing_signature").toBeDefined();
    const unjail = txs.find(
      (t) =>
        t.typeUrls.includes("/cosmos.slashing.v1beta1.MsgUnjail") &&
        t.code === 0 &&
        t.height > jail!.height,
    );
    expect(unjail, "a successful MsgUnjail after the jailing").toBeDefined();
  });
});

describe("EVM activity and token standards on chain", () => {
  const TRANSFER = id("Transfer(address,address,uint256)");
  const logs = (address: string, topics: (string | null)[]) =>
    provider.getLogs({
      address,
      topics,
      fromBlock: scenario.fromHeight,
      toBlock: scenario.toHeight,
    });

  it("CFC-20 Transfer events (3 topics) from TestToken", async () => {
    const l = await logs(scenario.contracts.TestToken!, [TRANSFER]);
    expect(l.length).toBeGreaterThanOrEqual(4);
    expect(l.every((x) => x.topics.length === 3)).toBe(true);
  });

  it("CFC-721 Transfer events (4 topics) including mint and burn", async () => {
    const l = await logs(scenario.contracts.TestNFT!, [TRANSFER]);
    expect(l.every((x) => x.topics.length === 4)).toBe(true);
    const zero = zeroPadValue("0x", 32);
    expect(l.some((x) => x.topics[1] === zero)).toBe(true);
    expect(l.some((x) => x.topics[2] === zero)).toBe(true);
  });

  it("ERC-1155 TransferSingle and TransferBatch events", async () => {
    const single = await logs(scenario.contracts.TestMulti!, [
      id("TransferSingle(address,address,address,uint256,uint256)"),
    ]);
    const batch = await logs(scenario.contracts.TestMulti!, [
      id("TransferBatch(address,address,address,uint256[],uint256[])"),
    ]);
    expect(single.length).toBeGreaterThanOrEqual(3);
    expect(batch.length).toBeGreaterThanOrEqual(1);
  });

  it("NFT tokenURIs are a data: URI and http URLs that serve metadata", async () => {
    const nft = new Contract(
      scenario.contracts.TestNFT!,
      ["function tokenURI(uint256) view returns (string)"],
      provider,
    );
    const inline: string = await nft.getFunction("tokenURI")(1);
    expect(inline).toMatch(/^data:application\/json;base64,/);
    expect(JSON.parse(Buffer.from(inline.split(",")[1]!, "base64").toString()).name).toBe(
      "Scenario NFT #1",
    );
    const url: string = await nft.getFunction("tokenURI")(2);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/nft\/.+-v2\/2\.json$/);
    const doc = (await (await fetch(url)).json()) as { name: string; attributes: unknown[] };
    expect(doc.name).toMatch(/#2$/);
    expect(doc.attributes.length).toBeGreaterThan(0);
  });

  it("the non-standard token's balances differ from the sum of its Transfer events", async () => {
    const fot = scenario.contracts.FeeToken!;
    const token = new Contract(
      fot,
      ["function balanceOf(address) view returns (uint256)"],
      provider,
    );
    const l = await logs(fot, [TRANSFER]);
    for (const holder of [
      "0xC989344De810f6e670238939360F27Ddc6C71996",
      "0xB6508E66fe5f1eB2f67A10BF54B5e651bF894a12",
    ]) {
      const topic = zeroPadValue(holder, 32).toLowerCase();
      const sum = l.reduce(
        (acc, x) =>
          acc +
          (x.topics[2]?.toLowerCase() === topic ? BigInt(x.data) : 0n) -
          (x.topics[1]?.toLowerCase() === topic ? BigInt(x.data) : 0n),
        0n,
      );
      const balance: bigint = await token.getFunction("balanceOf")(holder);
      expect(balance).not.toBe(sum);
    }
  });

  it("contracts created by a contract are visible in call traces (CREATE and CREATE2)", async () => {
    for (const [label, kind] of [
      ["evm contract creates contract (CREATE)", "CREATE"],
      ["evm contract creates contract (CREATE2)", "CREATE2"],
    ] as const) {
      const hash = scenario.sent.find((s) => s.label === label)!.hash;
      const trace = (await provider.send("debug_traceTransaction", [
        hash,
        { tracer: "callTracer" },
      ])) as { calls?: { type: string }[] };
      expect(trace.calls?.map((c) => c.type)).toContain(kind);
    }
  });

  it("reverted EVM calls have receipt status 0, others 1", async () => {
    const evm = scenario.sent.filter((x) => x.hash.startsWith("0x"));
    expect(evm.filter((s) => s.expect !== "success").length).toBeGreaterThan(0);
    expect(evm.filter((s) => s.expect === "success").length).toBeGreaterThan(0);
    for (const s of evm) {
      const r = await provider.getTransactionReceipt(s.hash);
      expect(r?.status, s.label).toBe(s.expect === "success" ? 1 : 0);
    }
  });

  it("both legacy and EIP-1559 transactions were sent", async () => {
    const types = new Set<number>();
    for (const s of scenario.sent.filter((x) => x.hash.startsWith("0x")))
      types.add((await provider.getTransaction(s.hash))!.type);
    expect([...types].sort()).toEqual([0, 2]);
  });
});
