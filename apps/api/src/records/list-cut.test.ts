import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packRow, unpackRow } from "./list-cut.ts";
import { FAMILIES, type Row } from "./list-families.ts";
import { RecordCache } from "./record-cache.ts";

/**
 * Lists kept in the record cache: any page (range of heights, order, skip, take) of any key is the
 * page a plain filter-sort-slice of the rows gives, across many writes (a key's positions span
 * chunks of 64, some written partly by one write and ended by the next); keys of kinds the family
 * does not list are not answered; rows come back as they went in (the block's hash kept once per height).
 */
const A = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const C = "0xcccccccccccccccccccccccccccccccccccccccc";

/** An EVM transaction row as evm_txs gives it; `k` picks its sender and recipient. */
const evmRow = (height: number, idx: number, k: number): Row => ({
  block_number: String(height),
  tx_index: idx,
  hash: `0x${(height * 1000 + idx).toString(16).padStart(64, "0")}`,
  block_hash: `0x${height.toString(16).padStart(64, "f")}`,
  ts: String(1_700_000_000 + height),
  from_address: [A, B, C][k % 3],
  to_address: k % 5 === 0 ? "" : [B, C, A][k % 2],
  contract_address: k % 5 === 0 ? C : "",
  nonce: String(k),
  value: "1000000000000000000",
  gas: "21000",
  gas_price: "10",
  gas_used: "21000",
  cumulative_gas_used: String(21000 * (idx + 1)),
  status: k % 7 === 0 ? 0 : 1,
  input: k % 2 ? "0x" : "0xa9059cbb00ff",
});

describe("lists kept in the record cache", () => {
  it("cuts every page as filtering and sorting the rows would", async () => {
    const cache = new RecordCache(mkdtempSync(join(tmpdir(), "lists-")));
    await cache.use("explorer_1", "s1");
    const all: Row[] = [];
    let k = 0;
    // 40 writes of 1-5 blocks, 0-9 transactions a block: A's list spans several chunks of 64
    let height = 3;
    for (let w = 0; w < 40; w++) {
      const from = height;
      const rows: Row[] = [];
      for (const h of Array.from({ length: 1 + (w % 5) }, (_, i) => from + i))
        for (let idx = 0; idx < (h * 7) % 10; idx++) rows.push(evmRow(h, idx, k++));
      height = from + 1 + (w % 5);
      cache.put("explorer_1", { from, to: height - 1, txs: [], blocks: [], lists: { evm: rows } });
      all.push(...rows);
    }
    const top = height - 1;
    for (const key of [A, B, C]) {
      const mine = all.filter((r) =>
        [r.from_address, r.to_address, r.contract_address].includes(key),
      );
      expect(mine.length).toBeGreaterThan(64);
      for (const [from, upTo] of [
        [0, top],
        [50, 120],
        [top, top],
        [top + 1, top],
      ] as const)
        for (const desc of [false, true])
          for (const [skip, take] of [
            [0, 10],
            [7, 64],
            [60, 200],
            [1000, 5],
          ] as const) {
            const inRange = mine.filter(
              (r) => Number(r.block_number) >= from && Number(r.block_number) <= upTo,
            );
            const ordered = desc ? [...inRange].reverse() : inRange;
            const page = cache.listPage("explorer_1", "evm", `a:${key}`, {
              from,
              upTo,
              desc,
              skip,
              take,
            });
            expect(page?.rows()).toEqual(ordered.slice(skip, skip + take));
          }
    }
    // a key never listed: no rows; a kind the family does not list: not answered
    const q = { from: 0, upTo: top, desc: false, skip: 0, take: 10 };
    expect(cache.listPage("explorer_1", "evm", `a:0x${"d".repeat(40)}`, q)?.rows()).toEqual([]);
    expect(cache.listPage("explorer_1", "evm", `x:${A}`, q)).toBeUndefined();
    // above the height filled, or another set: not answered
    expect(cache.listPage("explorer_1", "evm", `a:${A}`, { ...q, upTo: top + 1 })).toBeUndefined();
    expect(cache.listPage("explorer_2", "evm", `a:${A}`, q)).toBeUndefined();
    await cache.close();
  });

  it("gives rows back as they went in, hex kept as bytes", () => {
    const f = FAMILIES.logs;
    const row: Row = {
      block_number: "12",
      log_index: 3,
      tx_index: 1,
      tx_log_index: 0,
      block_hash: `0x${"ab".repeat(32)}`,
      tx_hash: `0x${"CD".repeat(32)}`, // not lowercase: kept as text
      contract: A,
      origin: B,
      topics: [`0x${"01".repeat(32)}`, "0x"],
      data: "0x0",
      time: "2026-11-29 05:00:00.000",
      ts: "1795928400",
    };
    const packed = packRow(f, row);
    expect(unpackRow(f, packed, row.block_hash as string)).toEqual(row);
    expect(packed.length).toBeLessThan(JSON.stringify(row).length / 2);
  });
});
