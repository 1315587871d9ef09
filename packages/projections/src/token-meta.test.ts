import type { RawBlockV1, TokenMeta } from "@explorer/raw-block";
import { describe, expect, it } from "vitest";
import { recordedBlocks } from "./fixtures.ts";
import { projectTokenMeta } from "./token-meta.ts";

const blocks = recordedBlocks();
const created = blocks.find((b) => b.contracts.some((c) => c.token?.standard === "ERC20"))!;
const token = created.contracts.find((c) => c.token?.standard === "ERC20")!;

describe("token metadata", () => {
  it("is read at a token's creation", () => {
    const rows = projectTokenMeta(created).token_meta;
    expect(rows).toContainEqual({
      contract: token.address,
      height: created.height,
      token_type: "CFC-20",
      name: token.token!.name,
      symbol: token.token!.symbol,
      decimals: token.token!.decimals,
    });
  });

  it("is read again where a later block read it (a proxy initialized after its creation)", () => {
    const later = structuredClone(created) as RawBlockV1 & { height: number };
    const meta: TokenMeta = {
      standard: "ERC20",
      name: "Proxied",
      symbol: "PRX",
      decimals: 6,
      totalSupply: "1",
    };
    (later as { contracts: unknown[] }).contracts = [];
    (later as { height: number }).height = created.height + 5;
    const base = { standard: "ERC20" as const, totalSupply: "1", balances: {}, multiBalances: {} };
    (later as { tokens: object }).tokens = {
      [token.address]: { ...base, nfts: {}, meta },
      "0x00000000000000000000000000000000000000aa": { ...base, nfts: {} }, // not read: no row
      "0x00000000000000000000000000000000000000bb": { ...base, nfts: {}, meta: null }, // no token
    };
    expect(projectTokenMeta(later).token_meta).toEqual([
      {
        contract: token.address,
        height: created.height + 5,
        token_type: "CFC-20",
        name: "Proxied",
        symbol: "PRX",
        decimals: 6,
      },
    ]);
  });
});
