import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, openClickHouse, queryRows } from "@explorer/store";
import { describe, expect, it } from "vitest";
import {
  CONTRACT_SQL,
  type ContractRow,
  contractRecord,
  inventoryRecord,
  tokenRecord,
} from "./evm.ts";

const row = (over: Partial<ContractRow>): ContractRow => ({
  address: "0x9d7f2fbcca2b53f90dfbe47eb9921fa4f402644e",
  creator: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
  tx_hash: `0x${"ab".repeat(32)}`,
  block_number: 42,
  time: "2026-11-24 02:00:00.000",
  code: "0x6080",
  token_type: "CFC-721",
  name: "",
  symbol: "",
  decimals: null,
  total_supply: "3",
  transfer_count: 5,
  holder_count: 2,
  verified: 0,
  abi: "",
  source_code: "",
  compiler_version: "",
  ...over,
});

const naming = (r: Record<string, unknown>) =>
  Object.fromEntries(["name", "symbol", "decimals"].filter((k) => k in r).map((k) => [k, r[k]]));

describe("a token's name, symbol and decimals", () => {
  it("are absent where the token has none, in its contract record as in its token record", () => {
    const nft = row({});
    expect(naming(contractRecord(nft))).toEqual({});
    expect(naming(tokenRecord(nft))).toEqual({});
    const named = row({ token_type: "CFC-20", name: "Test", symbol: "TST", decimals: 18 });
    const expected = { name: "Test", symbol: "TST", decimals: 18 };
    expect(naming(contractRecord(named))).toEqual(expected);
    expect(naming(tokenRecord(named))).toEqual(expected);
    expect(tokenRecord(named).tokenSymbol).toBe("TST");
    expect(naming(contractRecord(row({ token_type: "", name: "x", decimals: 6 })))).toEqual({});
  });
});

describe("an NFT's metadata", () => {
  const item = (metadata: unknown) =>
    inventoryRecord({
      contract: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
      token_id: "7",
      owner: "",
      token_uri: "ipfs://x/7.json",
      height: 42,
      time: "2026-11-24 02:00:00.000",
      creator: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787",
      token_type: "CFC-721",
      name: "",
      symbol: "",
      transfers: 1,
      metadata: JSON.stringify(metadata),
    }).metadata;

  it("is shaped as the SPEC gives it, whatever the document holds", () => {
    expect(
      item({
        name: "Seven",
        image: { url: "ipfs://img" },
        description: 7,
        attributes: [
          { trait_type: "eyes", value: "blue", display_type: "string" },
          { value: 3 },
          { trait_type: "rare", value: true },
          { trait_type: "stats", value: { hp: 1 } },
          "loose text",
          null,
          ["a", "b"],
        ],
      }),
    ).toEqual({
      image: "",
      description: "7",
      name: "Seven",
      attributes: [
        { trait_type: "eyes", value: "blue" },
        { trait_type: "", value: 3 },
        { trait_type: "rare", value: true },
        { trait_type: "stats", value: '{"hp":1}' },
      ],
    });
    expect(item({ attributes: "none" })).toEqual({
      image: "",
      description: "",
      name: "",
      attributes: [],
    });
  });
});

describe("the contracts query", () => {
  it("counts and sums a token with no holders or transfers as 0, not null", async () => {
    const ch = await openClickHouse({
      kind: "chdb",
      path: mkdtempSync(join(tmpdir(), "api-evm-")),
    });
    try {
      await migrate(ch, "c");
      const [empty, held] = [
        "0x00000000000000000000000000000000000000e1",
        "0x00000000000000000000000000000000000000e2",
      ];
      await ch.command({
        query: `INSERT INTO c.contracts (address, token_type) VALUES ('${empty}', 'ERC-1155'), ('${held}', 'ERC-1155')`,
      });
      await ch.command({
        query: `INSERT INTO c.token_holders (contract, holder, token_id, balance, height) VALUES ('${held}', '0xab', '1', 7, 1), ('${held}', '0xcd', '2', 5, 1)`,
      });
      await ch.command({
        query: `INSERT INTO c.token_transfers (block_number, contract, value) VALUES (1, '${held}', 7)`,
      });
      const rows = await queryRows<ContractRow>(
        ch,
        `SELECT * FROM (${CONTRACT_SQL.replaceAll("{db}", "c").replaceAll("{projected}", "1")}) ORDER BY holder_count, address`,
      );
      expect(
        rows.map((r) => [
          r.address,
          String(r.holder_count),
          String(r.transfer_count),
          r.total_supply,
        ]),
      ).toEqual([
        [empty, "0", "0", "0"],
        [held, "2", "1", "12"],
      ]);
    } finally {
      await ch.close();
    }
  });
});
