import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openClickHouse, queryRows } from "./client.ts";
import { dayOf as dayOfSql } from "./day-sums.ts";
import { ensureCurrentSet } from "./table-sets.ts";
import { batchWriter } from "./test-batch.ts";
import { VALIDATOR_SETTLED, validatorLo, validatorOpen } from "./validator-days.ts";

const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "chdb-val-")) });
afterAll(() => ch.close());
const { db } = await ensureCurrentSet(ch, "valdays");

const DAYS = ["2026-12-27", "2026-12-28", "2026-12-31", "2027-01-01", "2027-01-05"];
const PER_DAY = 4;
const TOP = DAYS.length * PER_DAY;
const dayOf = (h: number) => DAYS[Math.floor((h - 1) / PER_DAY)]!;
const timeOf = (h: number) =>
  `${dayOf(h)} ${String(1 + ((h - 1) % PER_DAY) * 5).padStart(2, "0")}:00:00.000`;
/** The validators a block's commit names, and whether each signed: C joins at height 6, B misses every third block, none is named at height 1. */
const commitAt = (h: number): [string, number][] =>
  h === 1
    ? []
    : [
        ["AA", 1],
        ["BB", h % 3 === 0 ? 0 : 1],
        ...(h >= 6 ? ([["CC", h % 5 === 0 ? 0 : 1]] as [string, number][]) : []),
      ];

const batch = batchWriter(ch, db, async (hs, rows) => {
  await rows(
    "block_stats",
    hs.map((h) => ({ height: h, time: timeOf(h) })),
  );
  await rows(
    "validator_signatures",
    hs.flatMap((h) =>
      commitAt(h).map(([cons_address, signed]) => ({ cons_address, height: h, signed })),
    ),
  );
});

interface Row {
  day: string;
  signed: string;
  missed: string;
}

/** A validator's days up to height `hi` as the API reads them: its settled days, then the open ones. */
const read = async (cons: string, hi: number): Promise<Row[]> => {
  const sql = (s: string) => s.replaceAll("{db}", db).replaceAll("{projected}", String(hi));
  const [{ lo }] = (await queryRows<{ lo: string }>(
    ch,
    sql(validatorLo("{projected}", dayOfSql)),
  )) as [{ lo: string }];
  const settled = await queryRows<Row>(ch, sql(VALIDATOR_SETTLED), { cons, lo });
  const open = await queryRows<Row & { cons: string }>(ch, sql(validatorOpen("{projected}")), {
    lo,
  });
  return [...settled, ...open.filter((r) => r.cons === cons).map(({ cons: _, ...r }) => r)];
};

/** A validator's days up to height `top`, recomputed here from the commits. */
const expected = (cons: string, top: number): Row[] => {
  const by = new Map<string, { signed: number; missed: number }>();
  for (let h = 1; h <= top; h++)
    for (const [c, signed] of commitAt(h)) {
      if (c !== cons) continue;
      const d = by.get(dayOf(h)) ?? { signed: 0, missed: 0 };
      if (signed) d.signed++;
      else d.missed++;
      by.set(dayOf(h), d);
    }
  return [...by].map(([day, d]) => ({ day, signed: String(d.signed), missed: String(d.missed) }));
};

describe("validator days", () => {
  it("settle each day once a later day's block is written, a replayed batch changing nothing", async () => {
    await batch(1, 3);
    const settledRows = () =>
      queryRows<{ n: string }>(
        ch,
        `SELECT toString(count()) AS n FROM ${db}.validator_day_stats FINAL`,
      );
    expect(await settledRows()).toEqual([{ n: "0" }]);
    await batch(4, 6); // closes the first day
    expect(await settledRows()).toEqual([{ n: "2" }]);
    await batch(7, 14);
    // after a crash, the batches from height 6 written again (other boundaries)
    await batch(6, 9);
    await batch(10, 13);
    await batch(14, TOP);
    for (const cons of ["AA", "BB", "CC"])
      expect(
        await queryRows<Row>(
          ch,
          `SELECT toString(day) AS day, toString(signed) AS signed, toString(missed) AS missed
          FROM ${db}.validator_day_stats FINAL WHERE cons_address = {cons:String} ORDER BY day`,
          { cons },
        ),
      ).toEqual(expected(cons, TOP - PER_DAY));
    // every kind of day: signed and missed, a validator joining mid-day
    expect(expected("BB", TOP).some((d) => d.missed !== "0" && d.signed !== "0")).toBe(true);
    expect(expected("CC", TOP)[0]).toEqual({ day: DAYS[1], signed: "3", missed: "0" });
  });

  it("give every day of a validator up to a height as recomputed from the commits, days settled beyond it left out", async () => {
    for (let h = 1; h <= TOP; h++)
      for (const cons of ["AA", "BB", "CC", "none"])
        expect(await read(cons, h)).toEqual(expected(cons, h));
  });
});
