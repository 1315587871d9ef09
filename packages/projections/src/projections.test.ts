import {
  Packed,
  PackedFormatError,
  pack,
  type RawBlockV1,
  TOPIC,
  touched,
} from "@explorer/raw-block";
import { describe, expect, it } from "vitest";
import { projectAccounts } from "./accounts.ts";
import { hexToBech32 } from "./address-cache.ts";
import { blockRecord, projectBlock } from "./blocks.ts";
import { projectChainState } from "./chain-state.ts";
import { decToUnits } from "./dec-coins.ts";
import {
  projectContracts,
  projectEventLogs,
  projectTokenState,
  projectTokenTransfers,
} from "./evm.ts";
import { recordedBlocks, recordedScenario } from "./fixtures.ts";
import { blockInput, openBlock, projectRawBlock } from "./index.ts";
import { projectTxs } from "./txs.ts";
import { consAddress, projectCommission, projectValidators } from "./validators.ts";

const blocks = recordedBlocks();
const scenario = recordedScenario();
const ctx = { prefix: "cosmos", nativeDenoms: ["atest"], txsBefore: 0 };
const at = (label: string): RawBlockV1 => {
  const s = scenario.sent.find((x) => x.label === label);
  if (!s) throw new Error(`no scenario tx ${label}`);
  return blocks.find((b) => b.height === s.height)!;
};
/** A row's record (UTF-8 JSON bytes) as an object. */
const recordOf = (row: { record: Uint8Array }) =>
  JSON.parse(Buffer.from(row.record).toString("utf8"));
const hashOf = (label: string) => scenario.sent.find((x) => x.label === label)!.hash;

describe("projections are pure", () => {
  const projections: [string, (raw: RawBlockV1) => unknown][] = [
    ["projectRawBlock", (raw) => projectRawBlock(blockInput(raw), ctx)],
    ["blockRecord", (raw) => blockRecord(raw)],
    ["projectBlock", (raw) => projectBlock(raw, ctx)],
    ["projectTxs", (raw) => projectTxs(blockInput(raw), ctx)],
    ["projectAccounts", (raw) => projectAccounts(raw, ctx)],
    ["projectValidators", (raw) => projectValidators(raw, ctx)],
    ["projectCommission", (raw) => projectCommission(raw)],
    ["projectChainState", (raw) => projectChainState(raw)],
    ["projectEventLogs", (raw) => projectEventLogs(raw)],
    ["projectContracts", (raw) => projectContracts(raw)],
    ["projectTokenTransfers", (raw) => projectTokenTransfers(raw)],
    ["projectTokenState", (raw) => projectTokenState(raw)],
  ];

  it("leave the RawBlock and the context as they were", () => {
    const ctxBefore = structuredClone(ctx);
    for (const b of blocks) {
      // Cloned before any projection sees the block, so a mutation by any of them shows.
      const input = structuredClone(b);
      const before = structuredClone(b);
      for (const [name, project] of projections) {
        project(input);
        expect(input, `${name} at height ${b.height}`).toStrictEqual(before);
        expect(ctx, `${name} at height ${b.height}`).toStrictEqual(ctxBefore);
      }
    }
  });

  it("give the same rows, byte for byte, every time", () => {
    for (const b of blocks)
      expect(JSON.stringify(projectRawBlock(blockInput(structuredClone(b)), ctx))).toBe(
        JSON.stringify(projectRawBlock(blockInput(structuredClone(b)), ctx)),
      );
  });
});

describe("blocks", () => {
  it("carry the SPEC Block record", () => {
    const b = blocks.at(-1)!;
    const r = blockRecord(b);
    expect(r.height).toBe(b.height);
    expect(r.block_hash).toMatch(/^[0-9A-F]{64}$/);
    expect(r.last_block_hash).toMatch(/^[0-9A-F]{64}$/);
    expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.version.block).toBe("11");
    expect(r.evm?.number).toBe(`0x${b.height.toString(16)}`);
    expect(r.sigs.length).toBeGreaterThan(0);
    expect(typeof r.sigs[0]!.signed).toBe("boolean");
    expect(typeof r.block_size).toBe("string");
  });
  it("name an absent signer from H-1's set, the one last_commit lists, not H's", () => {
    const b = structuredClone(blocks.at(-1)!);
    const sigs = b.comet.block.block as { last_commit: { signatures: unknown[] } };
    const [a, gone] = ["A".repeat(40), "B".repeat(40)];
    sigs.last_commit.signatures = [
      { block_id_flag: 2, validator_address: a, signature: "x" },
      { block_id_flag: 1, validator_address: "", signature: null },
    ];
    // B left the set at H: H-1's set (the signers of last_commit) still has it, H's does not.
    const withSigners = {
      ...b,
      comet: { ...b.comet, lastCommitValidators: [{ address: a }, { address: gone }] },
    };
    expect(projectBlock(withSigners, ctx).validator_signatures).toEqual([
      { cons_address: a, height: b.height - 1, signed: 1 },
      { cons_address: gone, height: b.height - 1, signed: 0 },
    ]);
    // A record from before lastCommitValidators: H's set, which cannot name B: left out.
    const old = {
      ...b,
      comet: {
        block: b.comet.block,
        blockResults: b.comet.blockResults,
        validators: [{ address: a }],
      },
    };
    expect(projectBlock(old, ctx).validator_signatures).toEqual([
      { cons_address: a, height: b.height - 1, signed: 1 },
    ]);
  });

  it("give the first block an empty last_block_hash", () => {
    expect(blockRecord(blocks.find((b) => b.height === 1)!).last_block_hash).toBe("");
  });
  it("record who signed the previous block, absent validators included", () => {
    const b = at("slashing unjail too early");
    const sigs = projectBlock(b, ctx).validator_signatures;
    expect(
      sigs.every((s) => s.height === b.height - 1 && /^[0-9A-F]{40}$/.test(s.cons_address)),
    ).toBe(true);
    expect(sigs.some((s) => s.signed === 0)).toBe(true); // val1's node was down
  });
});

describe("transactions", () => {
  it("count each block's messages by type URL, as the records' bodies hold them (sql/025)", () => {
    let seen = 0;
    for (const b of blocks) {
      const { txs, block_messages } = projectTxs(blockInput(b), ctx);
      const want = new Map<string, number>();
      for (const t of txs)
        for (const m of recordOf(t).body.messages as { "@type": string }[])
          want.set(m["@type"], (want.get(m["@type"]) ?? 0) + 1);
      expect(
        new Map(block_messages.map((r) => [r.type, r.messages])),
        `height ${b.height}`,
      ).toEqual(want);
      expect(block_messages.every((r) => r.height === b.height)).toBe(true);
      seen += block_messages.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a Cosmos tx: hash, messages, fee, code, logs by message", () => {
    const b = at("bank send");
    const { txs } = projectTxs(blockInput(b), ctx);
    const row = txs.find((t) => t.txhash === hashOf("bank send"))!;
    const r = recordOf(row);
    expect(r.txhash).toBe(hashOf("bank send"));
    expect(r.body.messages[0]["@type"]).toBe("/cosmos.bank.v1beta1.MsgSend");
    expect(r.auth_info.fee.gas_limit).toBe("400000");
    expect(r.code).toBe(0);
    expect(r.isEVM).toBe(false);
    expect(typeof r.height).toBe("number");
    expect(r.logs[0].msg_index).toBe(0);
    expect(r.logs[0].events.some((e: { type: string }) => e.type === "transfer")).toBe(true);
    expect(r.addresses.some((a: string) => a.startsWith("cosmos1"))).toBe(true);
    expect(r.addresses.some((a: string) => a.startsWith("0x"))).toBe(true);
    expect(row.message_types).toEqual(["/cosmos.bank.v1beta1.MsgSend"]);
  });

  it("an EVM tx involves the senders and recipients of its token transfers and the contract it creates", () => {
    const txOf = (label: string) =>
      projectTxs(blockInput(at(label)), ctx).txs.find((t) => t.evm_hashes.includes(hashOf(label)))!;
    const labels = [
      "erc20 transfer",
      "erc20 transferFrom",
      "erc721 safeTransferFrom",
      "erc1155 safeTransferFrom",
      "erc1155 safeBatchTransferFrom",
      "erc721 mint (http URI)",
    ];
    for (const label of labels) {
      const row = txOf(label);
      const transfers = projectTokenTransfers(at(label)).token_transfers.filter(
        (t) => t.tx_hash === hashOf(label),
      );
      expect(transfers.length, label).toBeGreaterThan(0);
      for (const t of transfers)
        for (const a of [t.from_address, t.to_address])
          if (!/^0x0{40}$/.test(a)) expect(row.addresses, `${label}: ${a}`).toContain(a);
      expect(row.addresses, label).not.toContain(`0x${"0".repeat(40)}`); // mints: not the zero address
    }
    const created = projectContracts(at("erc20 deploy TestToken (constructor args)")).contracts;
    const deploy = txOf("erc20 deploy TestToken (constructor args)");
    expect(created.length).toBeGreaterThan(0);
    for (const c of created) expect(deploy.addresses).toContain(c.address);
  });

  it("an EVM tx: the SPEC's EVM message shape and its EVM hash", () => {
    const b = at("evm EIP-1559 value transfer");
    const evmHash = hashOf("evm EIP-1559 value transfer");
    const row = projectTxs(blockInput(b), ctx).txs.find((t) => t.evm_hashes.includes(evmHash))!;
    const r = recordOf(row);
    expect(r.isEVM).toBe(true);
    expect(r.evm_txhashes).toEqual([evmHash]);
    const m = r.body.messages[0];
    expect(m["@type"]).toBe("/cosmos.evm.vm.v1.MsgEthereumTx");
    expect(m.hash).toBe(evmHash);
    expect(typeof m.size).toBe("number");
    expect(m.data["@type"]).toBe("/cosmos.evm.vm.v1.DynamicFeeTx");
    expect(m.data.value).toBe("2000000000000000000");
    for (const k of [
      "chain_id",
      "nonce",
      "gas_tip_cap",
      "gas_fee_cap",
      "gas",
      "to",
      "value",
      "v",
      "r",
      "s",
      "from",
      "base_fee_per_gas",
    ])
      expect(typeof m.data[k]).toBe("string");
    expect(m.data.chain_id).toBe("262144");
  });

  it("an EVM message's @type names its transaction type: legacy, EIP-2930, 1559, 4844, 7702", () => {
    const b = at("evm EIP-1559 value transfer");
    const evmHash = hashOf("evm EIP-1559 value transfer");
    const typeOf = (type: string | undefined) => {
      const raw = structuredClone(b);
      const tx = (raw.evm.block!.transactions as { hash: string; type?: string }[]).find(
        (t) => t.hash === evmHash,
      )!;
      if (type === undefined) delete tx.type;
      else tx.type = type;
      const row = projectTxs(blockInput(raw), ctx).txs.find((t) => t.evm_hashes.includes(evmHash))!;
      return recordOf(row).body.messages[0].data["@type"];
    };
    expect(typeOf("0x0")).toBe("/cosmos.evm.vm.v1.LegacyTx");
    expect(typeOf(undefined)).toBe("/cosmos.evm.vm.v1.LegacyTx");
    expect(typeOf("0x1")).toBe("/cosmos.evm.vm.v1.AccessListTx");
    expect(typeOf("0x2")).toBe("/cosmos.evm.vm.v1.DynamicFeeTx");
    expect(typeOf("0x3")).toBe("/cosmos.evm.vm.v1.BlobTx");
    expect(typeOf("0x4")).toBe("/cosmos.evm.vm.v1.SetCodeTx");
  });

  it("a reverted EVM tx has code 1 (receipt status 0) in codespace evm, a failed Cosmos tx its own code; info says why either failed", () => {
    const reverted = projectTxs(blockInput(at("evm reverted call (reason)")), ctx).txs.find((t) =>
      t.evm_hashes.includes(hashOf("evm reverted call (reason)")),
    )!;
    expect(reverted.code).toBe(1);
    expect(recordOf(reverted)).toMatchObject({
      code: 1,
      codespace: "evm",
      info: "execution reverted",
    });
    const failed = projectTxs(blockInput(at("bank send beyond balance")), ctx).txs.find(
      (t) => t.txhash === hashOf("bank send beyond balance"),
    )!;
    expect(failed.code).toBe(5);
    expect(recordOf(failed)).toMatchObject({
      code: 5,
      codespace: "sdk",
      info: expect.stringMatching(/^failed to execute message; .*: insufficient funds$/),
    });
    const ok = recordOf(projectTxs(blockInput(at("erc20 transfer")), ctx).txs[0]!);
    expect([ok.code, ok.codespace, ok.info]).toEqual([0, "", ""]);
  });
});

describe("transactions of unusual shapes (read in place, as the node's JSON would read as objects)", () => {
  // The record is written from the log's MessagePack without building objects (tx-parts.ts);
  // what the node could send in other shapes reads as JSON.parse and plain objects would have it.
  const odd = () => {
    const b = structuredClone(at("bank send"));
    const i = b.txs.findIndex((t) => JSON.stringify(t).includes("MsgSend"));
    const tx = b.txs[i] as {
      body: { messages: unknown[] };
      auth_info: unknown;
      signatures: unknown;
    };
    tx.body.messages.push(null, 5);
    tx.auth_info = null;
    tx.signatures = "not a list";
    const result = (b.comet.blockResults.txs_results as { [k: string]: unknown }[])[i]!;
    (result.events as unknown[]).push(
      null,
      { type: "lone", attributes: [{ key: "msg_index" }, 7, { key: 3, value: { a: 1 } }] },
      { type: "tx-level", attributes: [{ key: "k", value: 'ü "q"\n' }] },
    );
    result.code = "3";
    result.log = 'failed: "why"';
    result.info = "";
    result.gas_used = 5;
    return { b, i };
  };

  it("messages, fee, signatures and events that are not objects, codes as text", () => {
    const { b, i } = odd();
    const row = projectTxs(blockInput(b), ctx).txs[i]!;
    const r = recordOf(row);
    expect(r.body.messages.slice(-2)).toEqual([{}, {}]);
    expect(row.message_types).toEqual(["/cosmos.bank.v1beta1.MsgSend", ""]);
    expect(r.auth_info).toEqual({});
    expect(r.signatures).toEqual([]);
    expect(row.code).toBe(3);
    expect(r.code).toBe(3);
    expect(r.info).toBe('failed: "why"');
    expect(r.gas_used).toBe("5");
    // msg_index without a value is message 0; an attribute that is no object has an empty key and
    // value; a key or value that is no string reads as String gives it
    const lone = r.logs[0].events.find((e: { type: string }) => e.type === "lone");
    expect(lone.attributes).toEqual([
      { key: "", value: "" },
      { key: "3", value: "[object Object]" },
    ]);
    // an event without msg_index (fee, signer) is in no message's logs
    expect(JSON.stringify(r.logs)).not.toContain("tx-level");
  });

  it("a body that is no object has no messages; a tx without a result has code 0 and no logs", () => {
    const { b, i } = odd();
    (b.txs[i] as { body: unknown }).body = [1, 2];
    b.comet.blockResults.txs_results = (b.comet.blockResults.txs_results as never[]).slice(0, i);
    const row = projectTxs(blockInput(b), ctx).txs[i]!;
    const r = recordOf(row);
    expect(r.body).toEqual({ messages: [] });
    expect(row.message_types).toEqual([]);
    expect([row.code, r.code, r.codespace, r.gas_used, r.info, r.logs]).toEqual([
      0,
      0,
      "",
      "",
      "",
      [],
    ]);
  });

  it("a key or type that is an array reads as its text, as String reads it", () => {
    const { b, i } = odd();
    const result = (b.comet.blockResults.txs_results as { [k: string]: unknown }[])[i]!;
    result.code = 0;
    (result.events as unknown[]).push({
      type: ["ethereum_tx"],
      attributes: [
        { key: ["msg_index"], value: "0" },
        { key: ["ethereumTxFailed"], value: "reverted" },
      ],
    });
    const row = projectTxs(blockInput(b), ctx).txs[i]!;
    const r = recordOf(row);
    expect([row.code, r.code, r.codespace, r.info]).toEqual([1, 1, "evm", "reverted"]);
    const evm = r.logs[0].events.find((e: { type: string }) => e.type === "ethereum_tx");
    expect(evm.attributes).toEqual([{ key: "ethereumTxFailed", value: "reverted" }]);
  });

  it("writes text exactly as JSON.stringify does", () => {
    const { b, i } = odd();
    const value = 'ü "q" \\ \n\t\u0001 \u2028 😀 </script>';
    const result = (b.comet.blockResults.txs_results as { [k: string]: unknown }[])[i]!;
    (result.events as unknown[]).push({
      type: "t",
      attributes: [
        { key: "msg_index", value: "0" },
        { key: "k", value },
      ],
    });
    const text = Buffer.from(projectTxs(blockInput(b), ctx).txs[i]!.record).toString("utf8");
    expect(text).toContain(`{"key":"k","value":${JSON.stringify(value)}}`);
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });

  it("a record without a height has no `height`, as JSON.stringify leaves undefined out", () => {
    const { b, i } = odd();
    delete (b as { height?: number }).height;
    expect("height" in recordOf(projectTxs(blockInput(b), ctx).txs[i]!)).toBe(false);
  });

  it("a damaged record whose body has a key that is no string is refused, never written", () => {
    const { b, i } = odd();
    const bytes = pack(b);
    // the body's key "memo" (fixstr a4 "memo") made an array of four numbers, same length
    const memo = Buffer.from([0xa4, ...Buffer.from("memo")]);
    const at = Buffer.from(bytes).indexOf(memo);
    expect(at).toBeGreaterThan(0);
    bytes.set([0x94, 1, 2, 3, 4], at);
    expect(() => projectTxs(openBlock(new Packed(bytes)), ctx)).toThrow(PackedFormatError);
    expect(i).toBeGreaterThanOrEqual(0);
  });
});

describe("EVM projections", () => {
  it("CFC-20 transfers with exact values, CFC-721 with token ids, ERC-1155 batches item by item", () => {
    const erc20 = projectTokenTransfers(at("erc20 transfer")).token_transfers;
    expect(erc20).toEqual([
      expect.objectContaining({
        token_type: "CFC-20",
        value: "1000000000000000000000",
        token_id: "",
      }),
    ]);
    const erc721 = projectTokenTransfers(at("erc721 transferFrom")).token_transfers;
    expect(erc721).toEqual([
      expect.objectContaining({ token_type: "CFC-721", value: "1", token_id: "1" }),
    ]);
    const batch = projectTokenTransfers(at("erc1155 safeBatchTransferFrom")).token_transfers;
    expect(batch.map((t) => [t.sub, t.token_id, t.value])).toEqual([
      [0, "1", "5"],
      [1, "2", "1"],
    ]);
  });

  it("a TransferBatch log whose data declares more items than it holds gives no rows", () => {
    // Any contract can emit this topic with any data: 96 bytes that declare 200,000 items once
    // gave 200,000 zero rows, and a length of 2^64 ran the projector out of memory.
    const word = (n: bigint) => n.toString(16).padStart(64, "0");
    for (const n of [200_000n, 2n ** 64n]) {
      const raw = structuredClone(at("erc1155 safeBatchTransferFrom"));
      type Log = { topics: string[]; data: string };
      const batchLogs = raw.evm.receipts
        .flatMap((r) => (r as { logs: Log[] }).logs)
        .filter((l) => l.topics[0] === TOPIC.transferBatch);
      expect(batchLogs).toHaveLength(1);
      batchLogs[0]!.data = `0x${word(64n)}${word(64n)}${word(n)}`;
      expect(projectTokenTransfers(raw).token_transfers).toEqual([]);
    }
  });

  it("holder balances are the token's own balanceOf, also for the silent airdrop", () => {
    const fot = scenario.contracts.FeeToken!.toLowerCase();
    const rows = projectTokenState(
      at("fee-token airdrop (mint without Transfer)"),
    ).token_holders.filter((h) => h.contract === fot);
    expect(
      rows.find((h) => h.holder === "0xb6508e66fe5f1eb2f67a10bf54b5e651bf894a12")?.balance,
    ).toBe("104000000000000000000");
  });

  it("inventory follows owners and tokenURIs, and empties the owner of a burned token", () => {
    const nft = scenario.contracts.TestNFT!.toLowerCase();
    const minted = projectTokenState(at("erc721 mint (data: URI)")).token_inventory.find(
      (i) => i.contract === nft && i.token_id === "1",
    )!;
    expect(minted.token_uri).toMatch(/^data:application\/json;base64,/);
    expect(minted.owner).toBe("0xc989344de810f6e670238939360f27ddc6c71996");
    const burned = projectTokenState(at("erc721 burn")).token_inventory.find(
      (i) => i.contract === nft && i.token_id === "4",
    )!;
    expect(burned.owner).toBe("");
    const changed = projectTokenState(
      at("erc721 setTokenURI (metadata changes)"),
    ).token_inventory.find((i) => i.contract === nft && i.token_id === "2")!;
    expect(changed.token_uri).toMatch(/-v2\/2\.json$/);
  });

  it("contracts made by contracts, with their creator", () => {
    const { contracts } = projectContracts(at("evm contract creates contract (CREATE)"));
    expect(contracts).toEqual([
      expect.objectContaining({
        creator: scenario.contracts.Factory!.toLowerCase(),
        token_type: "",
      }),
    ]);
    const token = projectContracts(at("erc20 deploy TestToken (constructor args)")).contracts[0]!;
    expect(token).toMatchObject({
      token_type: "CFC-20",
      name: "Scenario Token",
      symbol: "SCN",
      decimals: 18,
      total_supply: "1000000000000000000000000",
    });
  });
});

describe("validators", () => {
  it("rows for the whole set whenever the block carries it, with consensus addresses matching the commits", () => {
    const genesis = blocks.find((b) => b.height === 1)!;
    const { validators } = projectValidators(genesis, ctx);
    expect(validators.length).toBeGreaterThan(0);
    const proposers = new Set(
      blocks.map(
        (b) =>
          (b.comet.block.block as { header: { proposer_address: string } }).header.proposer_address,
      ),
    );
    expect(validators.some((v) => proposers.has(v.cons_address))).toBe(true);
    expect(
      consAddress({
        "@type": "/cosmos.crypto.ed25519.PubKey",
        key: Buffer.alloc(32).toString("base64"),
      }),
    ).toMatch(/^[0-9A-F]{40}$/);
  });
});

describe("validator commission", () => {
  const allocations = (b: RawBlockV1) =>
    (
      b.comet.blockResults.finalize_block_events as {
        type: string;
        attributes: { key: string; value: string }[];
      }[]
    )
      .filter((e) => e.type === "commission")
      .map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])));

  it("adds each block's commission events, per validator, exact to 10^-18", () => {
    const b = blocks.find((x) => allocations(x).length === 2)!;
    const rows = projectCommission(b).validator_commission;
    expect(rows.length).toBe(2);
    for (const e of allocations(b)) {
      const row = rows.find((r) => r.operator_address === e.validator)!;
      expect(row.height).toBe(b.height);
      expect(row.denom).toBe("atest");
      expect(`${row.amount}atest`).toBe(`${decToUnits(e.amount!.replace(/atest$/, ""))}atest`);
    }
    expect(projectCommission(b).validator_commission_readings).toEqual([]); // read at no height here
  });

  it("keeps a reading for every validator read, one with no commission included", () => {
    const b = structuredClone(at("distribution withdraw-validator-commission"));
    (b.state as { commission?: unknown }).commission = {
      cosmosvaloper1a: [{ denom: "atest", amount: "12.500000000000000000" }],
      cosmosvaloper1b: [],
    };
    expect(projectCommission(b).validator_commission_readings).toEqual([
      {
        operator_address: "cosmosvaloper1a",
        height: b.height,
        denom: "atest",
        amount: "12500000000000000000",
      },
      { operator_address: "cosmosvaloper1b", height: b.height, denom: "", amount: "0" },
    ]);
  });

  it("tells the ingester to read every validator's commission where it changed without saying whose", () => {
    const changed = (b: RawBlockV1) => touched(b, "cosmos").commissionChanged;
    expect(changed(at("distribution withdraw-validator-commission"))).toBe(true);
    for (const label of ["bank send", "staking delegate", "distribution withdraw-delegator-reward"])
      expect(changed(at(label)), label).toBe(false);
    const created = structuredClone(at("bank send"));
    (created.comet.blockResults.finalize_block_events as unknown[]).push({
      type: "create_validator",
      attributes: [],
    });
    expect(changed(created)).toBe(true); // an operator address removed before may come back
  });

  it("a contract whose creation was undone (a failed frame above it, a failed deployment) is not created", () => {
    const viaFactory = at("evm contract creates contract (CREATE)");
    const createdBy = (b: RawBlockV1) => touched(b, "cosmos").created.map((c) => c.address);
    expect(createdBy(viaFactory)).toHaveLength(1);
    const reverted = structuredClone(viaFactory);
    // The factory's call frame (debug_traceBlock's {result}) failed: its CREATE was undone.
    const [call] = reverted.evm.traces! as { result: { type: string; error?: string } }[];
    expect(call!.result.type).toBe("CALL");
    call!.result.error = "execution reverted";
    expect(createdBy(reverted)).toEqual([]);
    // Without traces, the receipt says: evmd names the address of a failed deployment too.
    const deploy = structuredClone(at("evm deploy Reverter"));
    (deploy.evm as { traces?: unknown[] }).traces = [];
    expect(createdBy(deploy)).toHaveLength(1);
    for (const r of deploy.evm.receipts) r.status = "0x0";
    expect(createdBy(deploy)).toEqual([]);
  });

  it("tells the ingester to read the account of each contract created (no event names it)", () => {
    for (const label of ["evm contract creates contract (CREATE)", "evm deploy Reverter"]) {
      const t = touched(at(label), "cosmos");
      expect(t.created.length, label).toBeGreaterThan(0);
      for (const c of t.created)
        expect(t.accounts, label).toContain(hexToBech32("cosmos", c.address));
    }
  });

  it("reads a block whose record predates the readings as having none", () => {
    const b = structuredClone(at("distribution withdraw-validator-commission"));
    expect(projectCommission(b).validator_commission_readings).not.toEqual([]);
    delete (b.state as { commission?: unknown }).commission; // as recorded before the field existed
    expect(projectCommission(b).validator_commission_readings).toEqual([]);
  });
});
