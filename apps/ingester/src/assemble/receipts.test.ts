import { recordedBlocks } from "@explorer/projections/fixtures";
import type { JsonObject } from "@explorer/raw-block";
import { isRetryable } from "@explorer/service/errors";
import { describe, expect, it } from "vitest";
import { IndexLagError } from "../node/evm.ts";
import { receiptsFromResults, receiptsOf } from "./receipts.ts";

/**
 * Receipts built from block results against the node's own eth_getBlockReceipts, recorded with
 * them (packages/projections/fixtures: blocks of the reference chain's scenario, re-recorded by
 * tests/fixtures/record-rawblocks.ts): contract creations, reverted calls, logs, legacy and
 * dynamic-fee transactions, blocks mixing cosmos and EVM transactions.
 */
const blocks = recordedBlocks();

describe("receiptsFromResults", () => {
  it("gives the node's receipts byte for byte for every recorded block", () => {
    const withReceipts = blocks.filter((b) => b.evm.receipts.length > 0);
    expect(withReceipts.length).toBeGreaterThan(20);
    for (const b of blocks) {
      const built = receiptsFromResults(b.comet.blockResults, b.evm.block);
      expect(JSON.stringify(built), `height ${b.height}`).toBe(JSON.stringify(b.evm.receipts));
    }
  });

  it("answers logs as the node does when their events are odd: short hex padded, unparsable ones none", () => {
    const b = blocks.find((x) => x.evm.receipts.some((r) => (r.logs as unknown[]).length > 0))!;
    const withLogs = (edit: (log: Record<string, unknown>) => string): JsonObject => {
      const copy = structuredClone(b.comet.blockResults);
      for (const r of copy.txs_results as JsonObject[])
        for (const e of r.events as JsonObject[])
          for (const a of e.attributes as JsonObject[])
            if (a.key === "txLog") a.value = edit(JSON.parse(a.value as string));
      return copy;
    };
    const short = receiptsFromResults(
      withLogs((l) => JSON.stringify({ ...l, address: "0xAB" })),
      b.evm.block,
    );
    const logs = short.flatMap((r) => r.logs as JsonObject[]);
    expect(logs.length).toBeGreaterThan(0);
    for (const l of logs) expect(l.address).toBe(`0x${"0".repeat(38)}ab`);
    const broken = receiptsFromResults(
      withLogs(() => "{not json"),
      b.evm.block,
    );
    for (const r of broken) {
      expect(r.logs).toEqual([]);
      expect(r.logsBloom).toBe(`0x${"0".repeat(512)}`);
    }
  });

  it("refuses block results with EVM transactions but no EVM block", () => {
    const b = blocks.find((x) => x.evm.receipts.length > 0)!;
    expect(() => receiptsFromResults(b.comet.blockResults, null)).toThrow(/no EVM block/);
  });

  it("refuses a transaction whose events it cannot find, rather than guess", () => {
    const b = blocks.find((x) => x.evm.receipts.length > 0)!;
    const results: JsonObject = { ...b.comet.blockResults, txs_results: [] };
    expect(() => receiptsFromResults(results, b.evm.block)).toThrow(
      /no ethereum_tx event names 0x/,
    );
  });
});

describe("receiptsOf", () => {
  const b = blocks.find((x) => x.evm.receipts.length > 0)!;
  const parts = async () => [b.comet.blockResults, b.evm.block] as const;
  const lag = async (): Promise<never> => {
    throw new IndexLagError("eth_getBlockReceipts: the node's transaction index lacks this block");
  };

  it("gives the node's receipts when it has them, without reading anything else", async () => {
    const notes: string[] = [];
    const read = await receiptsOf(
      async () => b.evm.receipts,
      () => Promise.reject(new Error("not read")),
      (m) => notes.push(m),
    );
    expect(read).toBe(b.evm.receipts);
    expect(notes).toEqual([]);
  });

  it("builds them from the block's results when the node's index lacks the block, and says so", async () => {
    const notes: string[] = [];
    const built = await receiptsOf(lag, parts, (m) => notes.push(m));
    expect(built).toEqual(b.evm.receipts);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/index lacks this block.*built from the block's results/);
  });

  it("waits for the index (retryable) when the results cannot give them, and passes other errors on", async () => {
    const noResults: JsonObject = { ...b.comet.blockResults, txs_results: [] };
    const empty = async () => [noResults, b.evm.block] as const;
    const e = await receiptsOf(lag, empty).catch((x: unknown) => x);
    expect(isRetryable(e)).toBe(true);
    expect((e as Error).message).toMatch(/nor could its receipts be built.*no ethereum_tx event/);
    const other = new Error("height 3 is not available");
    await expect(receiptsOf(() => Promise.reject(other), parts)).rejects.toBe(other);
  });
});
