import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { feeOf } from "@explorer/projections";
import { Packed, pack } from "@explorer/raw-block";
import type { EmbeddedLog } from "@explorer/raw-log";
import { queryRows } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectLog } from "./project.ts";
import { sampleStore } from "./sample-store.fixtures.ts";

/**
 * `tx_stats` (sql/015), written by the projector since sql/028 instead of by a view that read each
 * record's JSON: its rows are what that view's expressions, kept here as the reference, read from
 * the records in `txs`.
 */
const dir = mkdtempSync(join(tmpdir(), "projector-tx-stats-"));
let ch: ClickHouseClient;
let log: EmbeddedLog;

/** The view's expressions of sql/015 over a record's JSON text. */
const VIEW = (record: string) => `
  JSONLength(${record}, 'body', 'messages') AS messages,
  arrayMap(c -> JSONExtractString(c, 'denom'), JSONExtractArrayRaw(${record}, 'auth_info', 'fee', 'amount')) AS fee_denoms,
  arrayMap(c -> toString(toUInt256OrZero(JSONExtractString(c, 'amount'))), JSONExtractArrayRaw(${record}, 'auth_info', 'fee', 'amount')) AS fee_amounts`;

beforeAll(async () => {
  ({ log, ch } = await sampleStore(dir, ["s_1"]));
  await projectLog(ch, "s_1", log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 500,
    batchIdleMs: 50,
    follow: false,
    workers: 0,
  });
}, 120_000);

afterAll(async () => {
  await ch?.close();
  await log?.close();
});

describe("tx_stats", () => {
  it("holds a row per transaction, as the view of sql/015 read it from the transaction's record", async () => {
    const [r] = await queryRows<{ txs: string; stats: string; differ: string; fees: string }>(
      ch,
      `SELECT
         toString((SELECT count() FROM s_1.txs FINAL)) AS txs,
         toString((SELECT count() FROM s_1.tx_stats FINAL)) AS stats,
         toString((SELECT countIf(s.time != t.time OR s.code != t.code OR s.is_evm != t.is_evm
             OR s.messages != t.messages OR s.fee_denoms != t.fee_denoms
             OR arrayMap(a -> toString(a), s.fee_amounts) != t.fee_amounts)
          FROM s_1.tx_stats AS s FINAL
          INNER JOIN (SELECT height, idx, time, code, is_evm, ${VIEW("record")} FROM s_1.txs FINAL) AS t
          USING (height, idx))) AS differ,
         toString((SELECT countIf(notEmpty(fee_denoms)) FROM s_1.tx_stats FINAL)) AS fees`,
    );
    expect(Number(r!.txs)).toBeGreaterThan(0);
    expect(r!.stats).toBe(r!.txs);
    expect(r!.fees).not.toBe("0");
    expect(r!.differ).toBe("0");
  });

  it("reads a fee of any shape as ClickHouse's JSON functions read the record's", async () => {
    const max = (1n << 256n) - 1n;
    const shapes: unknown[] = [
      { fee: { amount: [{ denom: "atest", amount: "5" }] } },
      {
        fee: {
          amount: [
            { denom: "a", amount: "+5" },
            { denom: "b", amount: "05" },
            { denom: "c", amount: " 5" },
            { denom: "d", amount: "5 " },
            { denom: "e", amount: "1e3" },
            { denom: "f", amount: "-5" },
            { denom: "g", amount: "" },
            { denom: "h", amount: "1.5" },
            { denom: "i", amount: max.toString() },
            { denom: "j", amount: (max + 1n).toString() },
            { denom: 'k\u00e9\n"', amount: 12 },
            { denom: 7, amount: 1.5 },
            { denom: null, amount: true },
            { denom: { x: 1 }, amount: [1] },
            { amount: "3" },
            "not a coin",
            1,
          ],
        },
      },
      { fee: { amount: "not a list" } },
      { fee: {} },
      {},
    ];
    for (const authInfo of shapes) {
      const [want] = await queryRows<{ fee_denoms: string[]; fee_amounts: string[] }>(
        ch,
        `SELECT ${VIEW("{r:String}")}`,
        { r: JSON.stringify({ auth_info: authInfo }) },
      );
      const got = feeOf(new Packed(pack(authInfo)), 0);
      expect({ fee_denoms: got.denoms, fee_amounts: got.amounts }).toEqual({
        fee_denoms: want!.fee_denoms,
        fee_amounts: want!.fee_amounts,
      });
    }
  });
});
