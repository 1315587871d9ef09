import type { CallFrame, Json, RawBlockV1 } from "@explorer/raw-block";
import { describe, expect, it } from "vitest";
import { blockInput } from "./block-input.ts";
import { recordedBlocks, recordedScenario } from "./fixtures.ts";
import { projectInternalTxs } from "./internal-txs.ts";

const blocks = recordedBlocks();
const scenario = recordedScenario();
const at = (label: string): RawBlockV1 => {
  const s = scenario.sent.find((x) => x.label === label);
  if (!s) throw new Error(`no scenario tx ${label}`);
  return blocks.find((b) => b.height === s.height)!;
};

/** The call tree as plain objects, flattened depth first: what the rows must say. */
const flatten = (f: CallFrame, path: number[] = []): object[] => [
  {
    trace_address: path,
    type: f.type.toLowerCase(),
    from_address: f.from.toLowerCase(),
    to_address: (f.to ?? "").toLowerCase(),
    value: BigInt(f.value ?? "0x0").toString(),
    gas: BigInt(f.gas).toString(),
    gas_used: BigInt(f.gasUsed).toString(),
    input_size: (f.input.length - 2) / 2,
    output_size: f.output ? (f.output.length - 2) / 2 : 0,
    error: f.error ?? "",
  },
  ...(f.calls ?? []).flatMap((c, i) => flatten(c, [...path, i])),
];

const rowsOf = (b: RawBlockV1) => projectInternalTxs(blockInput(b)).internal_txs;

describe("internal transactions", () => {
  it("are every frame of each call tree, depth first, with its place in the tree", () => {
    for (const label of [
      "evm contract creates contract (CREATE)",
      "evm contract creates contract (CREATE2)",
      "evm reverted call (reason)",
      "evm legacy value transfer",
    ]) {
      const b = at(label);
      const rows = rowsOf(b);
      const hashes = (b.evm.block!.transactions as { hash: string }[]).map((t) => t.hash);
      const want = b.evm.traces!.flatMap((t, i) =>
        flatten((t as { result: Json } as unknown as { result: CallFrame }).result).map((f, j) => ({
          block_number: b.height,
          tx_index: i,
          trace_index: j,
          tx_hash: hashes[i]!.toLowerCase(),
          ...f,
        })),
      );
      expect(
        rows.map(({ time: _, ...r }) => r),
        label,
      ).toEqual(want);
    }
    const created = rowsOf(at("evm contract creates contract (CREATE)"));
    expect(created.map((r) => [r.type, r.trace_address])).toEqual([
      ["call", []],
      ["create", [0]],
    ]);
    expect(created[1]!.input_size).toBeGreaterThan(100);
    expect(rowsOf(at("evm reverted call (reason)"))[0]!.error).toBe("execution reverted");
  });

  it("are none for a block recorded from a node without the debug namespace", () => {
    const b = structuredClone(at("evm contract creates contract (CREATE)"));
    (b.evm as { traces: unknown }).traces = null;
    expect(rowsOf(b)).toEqual([]);
  });
});
