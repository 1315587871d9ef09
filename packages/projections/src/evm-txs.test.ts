import { describe, expect, it } from "vitest";
import { projectEvmTxs } from "./evm-txs.ts";
import { recordedBlocks } from "./fixtures.ts";

type Obj = Record<string, string | null>;
const blocks = recordedBlocks();

describe("EVM transactions with their receipts", () => {
  it("are every EVM transaction of the recorded blocks, with the node's receipt fields", () => {
    let seen = 0;
    for (const b of blocks) {
      const txs = (b.evm.block?.transactions ?? []) as unknown as Obj[];
      const rows = projectEvmTxs(b).evm_txs;
      expect(rows.map((r) => r.hash)).toEqual(txs.map((t) => t.hash!.toLowerCase()));
      for (const row of rows) {
        const r = (b.evm.receipts as unknown as Obj[]).find(
          (x) => x.transactionHash!.toLowerCase() === row.hash,
        )!;
        const t = txs.find((x) => x.hash!.toLowerCase() === row.hash)!;
        expect(row).toMatchObject({
          block_number: b.height,
          tx_index: Number(BigInt(r.transactionIndex!)),
          from_address: t.from!.toLowerCase(),
          to_address: (t.to ?? "").toLowerCase(),
          contract_address: (r.contractAddress ?? "").toLowerCase(),
          nonce: BigInt(t.nonce!).toString(),
          gas_used: BigInt(r.gasUsed!).toString(),
          cumulative_gas_used: BigInt(r.cumulativeGasUsed!).toString(),
          status: r.status === "0x1" ? 1 : 0,
          input: t.input,
        });
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(5);
  });
});
