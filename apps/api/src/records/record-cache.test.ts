import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RecordCache, type RecordChunk } from "./record-cache.ts";

/**
 * The record cache on its own file (LMDB): what it keeps it gives back byte for byte, by either
 * hash of a transaction; it never answers for heights it has not filled, for another set, or from
 * a file whose stamp is not the set's; a restart keeps what was filled.
 */
const tx = (n: number, height: number, evm?: string) => ({
  height,
  idx: n,
  keys: [`h:${String(n).padStart(64, "A")}`, ...(evm ? [`e:${evm}`] : [])],
  record: JSON.stringify({ txhash: n, memo: "ünïcode ✓", evm }),
});
/** A kept transaction's text (kept gzip-compressed). */
const text = (gz: Buffer | undefined) => gz && gunzipSync(gz).toString();
const chunk = (from: number, to: number, txs: ReturnType<typeof tx>[]): RecordChunk => ({
  from,
  to,
  txs: txs.map((t) => [t.height, t.idx, t.keys, gzipSync(t.record)] as const),
  blocks: Array.from({ length: to - from + 1 }, (_, i) => {
    const h = from + i;
    return [h, `cons${h}`, JSON.stringify({ height: h, pad: "x".repeat(2000) })] as const;
  }),
});

describe("record cache", () => {
  it("gives back what it keeps, by Cosmos or EVM hash, and blocks up to the height filled", async () => {
    const cache = new RecordCache(mkdtempSync(join(tmpdir(), "records-")));
    await cache.use("explorer_1", "s1");
    expect(cache.filled("explorer_1")).toBe(0);
    const a = tx(1, 5);
    const b = tx(2, 6, `0x${"b".repeat(64)}`);
    cache.put("explorer_1", chunk(5, 7, [a, b])); // the set's first block: 5
    expect(cache.filled("explorer_1")).toBe(7);
    expect(text(cache.txGzipped("explorer_1", a.keys[0]!, 100))).toBe(a.record);
    expect(text(cache.txGzipped("explorer_1", b.keys[0]!, 100))).toBe(b.record);
    expect(text(cache.txGzipped("explorer_1", b.keys[1]!, 100))).toBe(b.record);
    expect(cache.txGzipped("explorer_1", "h:NOPE", 100)).toBeUndefined();
    // not above the height the caller has projected (a file left by a store built again)
    expect(cache.txGzipped("explorer_1", b.keys[0]!, 5)).toBeUndefined();
    expect(text(cache.txGzipped("explorer_1", a.keys[0]!, 5))).toBe(a.record);
    expect(cache.block("explorer_1", 6)).toEqual({
      proposer_cons: "cons6",
      record: JSON.stringify({ height: 6, pad: "x".repeat(2000) }),
    });
    expect(cache.block("explorer_1", 8)).toBeUndefined();
    // another set's lookups are not this file's
    expect(cache.txGzipped("explorer_2", a.keys[0]!, 100)).toBeUndefined();
    expect(cache.block("explorer_2", 6)).toBeUndefined();
    expect(cache.filled("explorer_2")).toBe(0);
    // a chunk that would leave heights unfilled, or for a set not kept, is refused
    expect(() => cache.put("explorer_1", chunk(9, 10, []))).toThrow(/gap above 7/);
    expect(() => cache.put("explorer_2", chunk(1, 2, []))).toThrow(/not the set kept/);
    // records out of order (they never are: places rise) undo the whole write
    const late = tx(9, 8);
    const early = tx(8, 8);
    expect(() => cache.put("explorer_1", chunk(8, 8, [late, early]))).toThrow(/out of order/);
    expect(cache.txGzipped("explorer_1", late.keys[0]!, 100)).toBeUndefined();
    expect(cache.filled("explorer_1")).toBe(7);
    // a chunk already written (by another process sharing the file) is skipped
    expect(cache.put("explorer_1", chunk(6, 7, []))).toBe(false);
    expect(cache.filled("explorer_1")).toBe(7);
    await cache.close();
  });

  it("keeps its file across a restart with the same stamp, and empties it for another stamp", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-"));
    const a = tx(3, 2);
    const first = new RecordCache(dir);
    await first.use("explorer_1", "s1");
    first.put("explorer_1", chunk(1, 4, [a]));
    await first.close();

    const again = new RecordCache(dir);
    await again.use("explorer_1", "s1");
    expect(again.filled("explorer_1")).toBe(4);
    expect(text(again.txGzipped("explorer_1", a.keys[0]!, 100))).toBe(a.record);
    // the same name, another set (a store deleted and built again): nothing of the old one
    await again.use("explorer_1", "s2");
    expect(again.filled("explorer_1")).toBe(0);
    expect(again.txGzipped("explorer_1", a.keys[0]!, 100)).toBeUndefined();
    expect(again.block("explorer_1", 1)).toBeUndefined();
    await again.close();
  });

  it("deletes the file of the set it kept before when it moves to a new one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "records-"));
    const cache = new RecordCache(dir);
    await cache.use("explorer_1", "s1");
    cache.put("explorer_1", chunk(1, 2, [tx(4, 1)]));
    mkdirSync(join(dir, "chdb")); // not a set's file: kept, as anything else there
    writeFileSync(join(dir, "notes"), "mine");
    await cache.use("explorer_2", "s1");
    expect(existsSync(join(dir, "explorer_1"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(["chdb", "explorer_2", "notes"]);
    expect(cache.set).toBe("explorer_2");
    expect(cache.filled("explorer_2")).toBe(0);
    await cache.close();
  });
});
