import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { accountDays, accountSums } from "./account-days.ts";
import { openClickHouse } from "./client.ts";
import { ensureCurrentSet } from "./table-sets.ts";
import { batchWriter } from "./test-batch.ts";

const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "chdb-acc-")) });
afterAll(() => ch.close());
const { db } = await ensureCurrentSet(ch, "accdays");

/** Days across a week's, a month's and a year's end (2026-12-28 and 2027-01-04 are Mondays). */
const DAYS = ["2026-12-27", "2026-12-28", "2026-12-31", "2027-01-01", "2027-01-05", "2027-02-01"];
const PER_DAY = 4;
const TOP = DAYS.length * PER_DAY;
const dayOf = (h: number) => DAYS[Math.floor((h - 1) / PER_DAY)]!;
const timeOf = (h: number) =>
  `${dayOf(h)} ${String(1 + ((h - 1) % PER_DAY) * 5).padStart(2, "0")}:00:00.000`;
/** The accounts active in block `h`, the account whose balance it reads, and that balance. */
const activeAt = (h: number) => [`a${h % 3}`, `b${(h * 7) % 11}`];
const readingAt = (h: number) => ({ address: `c${h % 4}`, amount: h % 3 === 0 ? 0 : h });

/** Writes blocks `a` to `b` as a batch does: their rows, then the days they close. */
const batch = batchWriter(ch, db, async (hs, rows) => {
  await rows(
    "block_stats",
    hs.map((h) => ({ height: h, time: timeOf(h) })),
  );
  await rows(
    "account_activity",
    hs.flatMap((h) => activeAt(h).map((address) => ({ height: h, address, time: timeOf(h) }))),
  );
  await rows(
    "address_balances",
    hs.map((h) => ({ denom: "atest", height: h, ...readingAt(h) })),
  );
  await rows(
    "native_transfer_stats",
    hs.map((h) => ({
      height: h,
      time: timeOf(h),
      evm_transfers: h % 2,
      bank_denoms: ["atest", "uother"],
      bank_transfers: [h % 3, 1],
    })),
  );
});

interface DayRow {
  day: string;
  active: number;
  active_week: number;
  active_month: number;
  active_year: number;
  new_accounts: number;
  evm_transfers: number;
  atest_transfers: number;
  holders_in: number;
  holders_out: number;
}

const read = async (sql: string): Promise<DayRow[]> => {
  const rs = await ch.query({
    query: `SELECT toString(day) AS day, active, active_week, active_month, active_year,
        new_accounts, evm_transfers,
        arraySum(arrayFilter((a, d) -> d = 'atest', bank_transfers, bank_denoms)) AS atest_transfers,
        arraySum(arrayFilter((a, d) -> d = 'atest', holders_in, holder_denoms)) AS holders_in,
        arraySum(arrayFilter((a, d) -> d = 'atest', holders_out, holder_denoms)) AS holders_out
      FROM (${sql.replaceAll("{db}", db)}) ORDER BY day`,
    format: "JSONEachRow",
  });
  return (await rs.json<Record<string, string>>()).map(
    (r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, k === "day" ? v : Number(v)]),
      ) as unknown as DayRow,
  );
};

/** What each day up to height `top` holds, recomputed here from the blocks' definitions. */
const expected = (top: number): DayRow[] => {
  const hs = Array.from({ length: top }, (_, i) => i + 1);
  const days = [...new Set(hs.map(dayOf))];
  const monday = (d: string) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000)
      .toISOString()
      .slice(0, 10);
  };
  const periods: [keyof DayRow, (d: string) => string][] = [
    ["active_week", monday],
    ["active_month", (d) => d.slice(0, 7)],
    ["active_year", (d) => d.slice(0, 4)],
    ["new_accounts", () => ""],
  ];
  const balance = new Map<string, number>();
  return days.map((day) => {
    const of = hs.filter((h) => dayOf(h) === day);
    const before = hs.filter((h) => dayOf(h) < day);
    const active = new Set(of.flatMap(activeAt));
    const row: Record<string, number | string> = { day, active: active.size };
    for (const [k, period] of periods) {
      const earlier = new Set(
        before.filter((h) => period(dayOf(h)) === period(day)).flatMap(activeAt),
      );
      row[k] = [...active].filter((a) => !earlier.has(a)).length;
    }
    row.evm_transfers = of.reduce((s, h) => s + (h % 2), 0);
    row.atest_transfers = of.reduce((s, h) => s + (h % 3), 0);
    const start = new Map(balance);
    for (const h of of) balance.set(readingAt(h).address, readingAt(h).amount);
    const touched = [...new Set(of.map((h) => readingAt(h).address))];
    row.holders_in = touched.filter((a) => !start.get(a) && balance.get(a)! > 0).length;
    row.holders_out = touched.filter((a) => (start.get(a) ?? 0) > 0 && !balance.get(a)).length;
    return row as unknown as DayRow;
  });
};

describe("account days", () => {
  it("settle each day once a later day's block is written, as recomputed from the blocks, a replayed batch changing nothing", async () => {
    await batch(1, 3);
    expect(await read(`SELECT * FROM {db}.account_day_stats FINAL`)).toEqual([]);
    await batch(4, 6); // closes the first day
    expect(await read(`SELECT * FROM {db}.account_day_stats FINAL`)).toEqual(expected(4));
    await batch(7, 14); // closes two more
    // after a crash, the batches from height 6 written again (other boundaries)
    await batch(6, 9);
    await batch(10, 13);
    await batch(14, TOP);
    const settled = await read(`SELECT * FROM {db}.account_day_stats FINAL`);
    expect(settled).toEqual(expected(TOP - PER_DAY));
    expect(settled).toEqual(await read(accountSums("1", String(TOP - PER_DAY))));
    // the days hold every kind of change (the last one, not settled yet, a month's first)
    const sums = (k: keyof DayRow) => expected(TOP).reduce((s, r) => s + Number(r[k]), 0);
    for (const k of ["active_week", "active_month", "active_year", "holders_in", "holders_out"])
      expect(sums(k as keyof DayRow)).toBeGreaterThan(0);
    expect(sums("active")).toBeGreaterThan(sums("active_year"));
    expect(sums("active_month")).toBeGreaterThan(sums("active_year"));
  });

  it("give every day up to a height as recomputed from its blocks, days settled beyond it left out", async () => {
    for (let h = 1; h <= TOP; h++) expect(await read(accountDays(String(h)))).toEqual(expected(h));
  });
});
