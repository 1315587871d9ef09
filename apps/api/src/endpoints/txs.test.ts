import { describe, expect, it } from "vitest";
import { txLookups } from "./txs.ts";

/** The lookups a transactions filter makes: which index, which keys (any of them matches). */
describe("txLookups", () => {
  const a = { evm: "0x5f3ff43ab5f26abb1d01076b384841f9284eb787", bech32: "cosmos1…" };
  const b = { evm: "0x0000000000000000000000000000000000000001", bech32: "cosmos1…" };

  it("makes address and addresses two lookups (both hold), as txhash and txhashes, by their key forms", () => {
    expect(
      txLookups({
        address: a,
        addresses: [b],
        txhash: { kind: "cosmos", hash: "AB".repeat(32) },
        txhashes: [{ kind: "evm", hash: `0x${"cd".repeat(32)}` }],
      }),
    ).toEqual([
      { index: "tx_lookup", keys: [`a:${a.evm}`] },
      { index: "tx_lookup", keys: [`a:${b.evm}`] },
      { index: "tx_hash", keys: [`h:${"AB".repeat(32)}`] },
      { index: "tx_hash", keys: [`e:0x${"cd".repeat(32)}`] },
    ]);
  });

  it("reads a message type with or without its leading slash; no filter, no lookup", () => {
    for (const messageType of ["cosmos.bank.v1beta1.MsgSend", "/cosmos.bank.v1beta1.MsgSend"])
      expect(txLookups({ messageType })).toEqual([
        { index: "tx_lookup", keys: ["m:/cosmos.bank.v1beta1.MsgSend"] },
      ]);
    expect(txLookups({ height: 5, existsEVM: true })).toEqual([]);
  });
});
