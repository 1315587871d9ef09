import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openClickHouse } from "./client.ts";
import { chainDays, dayOf, daySums } from "./day-sums.ts";
import { typedDaySums, typedOpen, typedSettled } from "./day-types.ts";
import { ensureCurrentSet } from "./table-sets.ts";
import { batchWriter } from "./test-batch.ts";

const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "chdb-days-")) });
afterAll(() => ch.close());
const { db } = await ensureCurrentSet(ch, "days");

/** Block `h`: four a day from 2026-03-01, at hours 1, 7, 13 and 19 (UTC). */
const timeOf = (h: number) => {
  const ms = Date.UTC(2026, 2, 1 + Math.floor((h - 1) / 4), 1 + ((h - 1) % 4) * 6);
  return new Date(ms).toISOString().replace("T", " ").replace("Z", "");
};

/** Token types and message types the blocks' rows take turns with (sql/025 `day_types`). */
const TOKEN_TYPES = ["CFC-20", "CFC-721", "ERC-1155"];
const MESSAGE_TYPES = ["/cosmos.bank.v1beta1.MsgSend", "/cosmos.evm.vm.v1.MsgEthereumTx"];

/** Writes blocks `a` to `b` as a batch does: their analytics rows, then the days they close. */
const batch = batchWriter(ch, db, async (hs, rows) => {
  await rows(
    "block_stats",
    hs.map((h) => ({
      height: h,
      time: timeOf(h),
      txs: h % 3,
      evm_txs: h % 2,
      gas_used: 21_000 * h,
      gas_limit: 1e7,
      size: 500 + h,
      evm_fee: `${10n ** 18n * BigInt(h)}`,
    })),
  );
  await rows(
    "tx_stats",
    hs.flatMap((h) =>
      Array.from({ length: h % 3 }, (_, idx) => ({
        height: h,
        idx,
        time: timeOf(h),
        code: idx,
        is_evm: idx % 2,
        messages: 1 + idx,
        fee_denoms: ["atest", "uother"],
        fee_amounts: [`${h * 100}`, "7"],
      })),
    ),
  );
  await rows(
    "token_transfers",
    hs.map((h) => ({
      block_number: h,
      log_index: 0,
      sub: 0,
      time: timeOf(h),
      contract: "0xc",
      token_type: TOKEN_TYPES[h % 3],
    })),
  );
  await rows(
    "block_messages",
    hs.flatMap((h) =>
      MESSAGE_TYPES.slice(h % 2).map((type, i) => ({ height: h, type, messages: h + i })),
    ),
  );
  await rows(
    "contracts",
    hs
      .filter((h) => h % 2 === 0)
      .map((h) => ({ address: `0x${h}`, block_number: h, time: timeOf(h) })),
  );
});

const rows = async (sql: string) =>
  (
    await ch.query({
      query: `SELECT * FROM (${sql.replaceAll("{db}", db)}) ORDER BY day`,
      format: "JSONEachRow",
    })
  ).json();
const settled = () => rows(`SELECT * FROM {db}.day_stats FINAL`);
/** `day_types` as settled, and as typedDaySums gives it over heights 1 to `hi`, in one order. */
const typedRows = async (sql: string) =>
  (
    await ch.query({
      query: `SELECT kind, type, toString(day) AS day, toString(max_height) AS max_height,
        toString(n) AS n FROM (${sql.replaceAll("{db}", db)}) ORDER BY kind, type, day`,
      format: "JSONEachRow",
    })
  ).json<{ kind: string; type: string; day: string; max_height: string; n: string }>();
const settledTypes = () => typedRows(`SELECT * FROM {db}.day_types FINAL`);

describe("day sums", () => {
  it("settle each day once a later day's block is written, exactly, and a replayed batch changes nothing", async () => {
    await batch(1, 3);
    expect(await settled()).toEqual([]);
    await batch(4, 6); // closes 2026-03-01
    expect(await settled()).toEqual(await rows(`${daySums("1", "4")}`));
    await batch(7, 7); // within a day: nothing settled
    await batch(8, 8);
    await batch(9, 10); // closes 2026-03-02
    const two = await rows(daySums("1", "8"));
    expect(two).toHaveLength(2);
    expect(await settled()).toEqual(two);
    // after a crash, the batches from height 5 written again (other boundaries): the same rows
    await batch(5, 9);
    await batch(10, 10);
    expect(await settled()).toEqual(two);
    expect(await settledTypes()).toEqual(await typedRows(typedDaySums("1", "8")));
    await batch(11, 13); // closes 2026-03-03
    expect(await settled()).toEqual(await rows(daySums("1", "12")));
    expect(await settledTypes()).toEqual(await typedRows(typedDaySums("1", "12")));
  });

  it("by type: give every day of a kind and type up to a height as the rows do", async () => {
    const types = [
      ...TOKEN_TYPES.map((type) => ["transfers", type]),
      ...MESSAGE_TYPES.map((type) => ["messages", type]),
      ["messages", "/never.Seen"],
    ];
    const read = async (sql: string, params: Record<string, string> = {}) =>
      (
        await ch.query({
          query: sql.replaceAll("{db}", db),
          query_params: params,
          format: "JSONEachRow",
        })
      ).json<{ kind?: string; type?: string; day: string; n: string }>();
    for (let h = 1; h <= 13; h++) {
      const all = await typedRows(typedDaySums("1", String(h)));
      const open = await read(typedOpen(String(h), dayOf));
      for (const [kind, type] of types) {
        const settled = await read(typedSettled(String(h), dayOf), { kind: kind!, type: type! });
        const of = (rs: { kind?: string; type?: string; day: string; n: string }[]) =>
          rs.filter((r) => r.kind === kind && r.type === type).map((r) => ({ day: r.day, n: r.n }));
        expect([...settled, ...of(open)], `${kind} ${type} at ${h}`).toEqual(of(all));
      }
    }
  });

  it("give every day up to a height as its blocks' and transactions' rows do, days settled beyond it left out", async () => {
    // every height written so far (13), read as if projected only up to each one
    for (let h = 1; h <= 13; h++)
      expect(await rows(chainDays(String(h)))).toEqual(await rows(daySums("1", String(h))));
  });
});
