import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { recordedBlocks } from "@explorer/projections/fixtures";
import { encodeRecord } from "@explorer/raw-block";
import { migrate, openClickHouse, readTableColumns, type TableColumns } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPool } from "./pool.ts";

/**
 * The projection workers get each payload's memory handed over (no copy) only when the log says
 * the payload is its own: a NATS message is a view of the socket's chunk, which can hold the
 * messages after it, and handing that chunk over emptied them.
 */
const dir = mkdtempSync(join(tmpdir(), "projector-pool-"));
let ch: ClickHouseClient;
let columns: TableColumns;
const ctx = () => ({ prefix: "cosmos", nativeDenoms: ["atest"], columns });
const block = recordedBlocks().find((b) => b.txs.length > 0)!;

beforeAll(async () => {
  ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  await migrate(ch, "pool");
  columns = await readTableColumns(ch, "pool");
}, 60_000);

afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the projection pool", () => {
  it("copies a payload that shares its memory: the entries after it stay readable", async () => {
    const one = encodeRecord(block);
    // a small record after it in the same memory, as a NATS chunk holds the next message
    const meta = encodeRecord({
      v: 1,
      kind: "metadata",
      chainId: "x",
      height: block.height,
      contract: `0x${"1".repeat(40)}`,
      tokenId: "1",
      tokenURI: "data:,",
      fetchedAt: "2026-11-27T00:00:00Z",
      metadata: null,
      error: "none",
    });
    const chunk = new Uint8Array(one.length + meta.length);
    chunk.set(one, 0);
    chunk.set(meta, one.length);
    const first = chunk.subarray(0, one.length);
    const second = chunk.subarray(one.length);
    const pool = openPool(2, ctx());
    try {
      const a = await pool.project(first);
      expect([a.kind, a.height, first.byteLength, second.byteLength]).toEqual([
        "block",
        block.height,
        one.length,
        meta.length,
      ]);
      const b = await pool.project(second);
      expect([b.kind, b.height]).toEqual(["metadata", block.height]);
    } finally {
      await pool.close();
    }
  });

  it("hands over a payload the log says is its own, without copying it", async () => {
    const own = encodeRecord(block);
    const pool = openPool(2, ctx());
    try {
      const a = await pool.project(own, true);
      expect([a.kind, a.height, own.byteLength]).toEqual(["block", block.height, 0]);
    } finally {
      await pool.close();
    }
  });
});
