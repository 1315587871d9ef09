import { describe, expect, it } from "vitest";
import { projectAnalytics } from "./analytics.ts";
import { recordedBlocks } from "./fixtures.ts";
import { blockInput } from "./index.ts";

const blocks = recordedBlocks();

describe("block_stats", () => {
  it("counts a block's transactions and the fees its EVM receipts paid", () => {
    const withEvm = blocks.filter((b) => b.evm.receipts.length > 0);
    expect(withEvm.length).toBeGreaterThan(0);
    for (const b of withEvm) {
      const [row] = projectAnalytics(blockInput(structuredClone(b)).raw).block_stats;
      expect(row!.height).toBe(b.height);
      expect(row!.evm_txs).toBe(b.evm.receipts.length);
      const paid = b.evm.receipts.reduce(
        (s, r) => s + BigInt(r.gasUsed as string) * BigInt(r.effectiveGasPrice as string),
        0n,
      );
      expect(paid).toBeGreaterThan(0n);
      expect(row!.evm_fee).toBe(paid.toString());
      expect(row!.gas_used).toBe(BigInt(b.evm.block!.gasUsed as string).toString());
      expect(row!.txs).toBeGreaterThanOrEqual(row!.evm_txs);
    }
  });

  it("gives a block without EVM transactions no fee", () => {
    const quiet = blocks.find((b) => b.evm.receipts.length === 0)!;
    const [row] = projectAnalytics(blockInput(structuredClone(quiet)).raw).block_stats;
    expect(row).toMatchObject({ evm_txs: 0, evm_fee: "0" });
  });
});
