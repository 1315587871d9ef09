import type { RawBlockV1 } from "@explorer/raw-block";
import { describe, expect, it } from "vitest";
import { hexToBech32 } from "./address-cache.ts";
import { arr, obj, str } from "./context.ts";
import { recordedBlocks } from "./fixtures.ts";
import { blockInput, projectRawBlock } from "./index.ts";

const blocks = recordedBlocks();
const ctx = { prefix: "cosmos", nativeDenoms: ["atest"], txsBefore: 0 };
const rowsOf = (b: RawBlockV1) => projectRawBlock(blockInput(structuredClone(b)), ctx);

/** The block's signers as the node's results name them (`tx` events' acc_seq), and EVM senders. */
const activeOf = (b: RawBlockV1): string[] => {
  const signers = arr(obj(b.comet.blockResults).txs_results).flatMap((r) =>
    arr(obj(r).events)
      .map(obj)
      .filter((e) => e.type === "tx")
      .flatMap((e) => arr(e.attributes).map(obj))
      .filter((a) => a.key === "acc_seq")
      .map((a) => str(a.value).split("/")[0]!),
  );
  const senders = arr(b.evm.block?.transactions).map((t) =>
    hexToBech32("cosmos", str(obj(t).from).toLowerCase()),
  );
  return [...new Set([...signers, ...senders])].sort();
};

describe("account_activity", () => {
  it("names the accounts that signed a transaction of the block or sent an EVM one, once each", () => {
    let cosmos = 0;
    let evm = 0;
    for (const b of blocks) {
      const rows = rowsOf(b).account_activity as { height: number; address: string }[];
      expect(rows.map((r) => r.address)).toEqual(activeOf(b));
      for (const r of rows) expect(r.height).toBe(b.height);
      const evmTxs = arr(b.evm.block?.transactions).length;
      if (b.txs.length > evmTxs) cosmos++;
      if (evmTxs > 0) evm++;
    }
    expect(cosmos).toBeGreaterThan(0);
    expect(evm).toBeGreaterThan(0);
  });

  it("has no row for a block without transactions", () => {
    const quiet = blocks.find((b) => b.txs.length === 0)!;
    expect(rowsOf(quiet).account_activity).toEqual([]);
  });
});

describe("native_transfer_stats", () => {
  /** Successful bank sends' native transfers, counted from the node's txs and results. */
  const bankOf = (b: RawBlockV1): number => {
    const results = arr(obj(b.comet.blockResults).txs_results).map(obj);
    return b.txs.reduce((n, tx, i) => {
      if (Number(results[i]?.code ?? 0) !== 0) return n;
      const ms = arr(obj(tx.body).messages).map(obj);
      const has = (coins: unknown) =>
        arr(coins as never).some(
          (c) => obj(c).denom === "atest" && BigInt(str(obj(c).amount)) > 0n,
        );
      return (
        n +
        ms.filter((m) => m["@type"] === "/cosmos.bank.v1beta1.MsgSend" && has(m.amount)).length +
        ms
          .filter((m) => m["@type"] === "/cosmos.bank.v1beta1.MsgMultiSend")
          .flatMap((m) => arr(m.outputs).filter((o) => has(obj(o).coins))).length
      );
    }, 0);
  };
  const evmOf = (b: RawBlockV1): number => {
    const ok = new Set(
      b.evm.receipts.filter((r) => r.status === "0x1").map((r) => str(r.transactionHash)),
    );
    return arr(b.evm.block?.transactions)
      .map(obj)
      .filter((t) => ok.has(str(t.hash)) && BigInt(str(t.value)) > 0n).length;
  };

  it("counts successful EVM transactions with a value and bank sends of each denom", () => {
    let bank = 0;
    let evm = 0;
    for (const b of blocks) {
      const [row] = rowsOf(b).native_transfer_stats as {
        evm_transfers: number;
        bank_denoms: string[];
        bank_transfers: number[];
      }[];
      const i = row!.bank_denoms.indexOf("atest");
      expect(i < 0 ? 0 : row!.bank_transfers[i]).toBe(bankOf(b));
      expect(row!.evm_transfers).toBe(evmOf(b));
      bank += bankOf(b);
      evm += evmOf(b);
    }
    expect(bank).toBeGreaterThan(0);
    expect(evm).toBeGreaterThan(0);
  });
});
