import type { ClickHouseClient } from "@clickhouse/client";
import { settleDays } from "./settle-days.ts";

/** Inserts JSON rows into a table of the test's table set. */
export type RowWriter = (table: string, values: object[]) => Promise<unknown>;

/**
 * For tests: writes blocks `a` to `b` as a projector's batch does, `write` giving their rows
 * (`heights`: a to b) to the tables of `db`, then settles the days they close.
 */
export const batchWriter =
  (
    ch: ClickHouseClient,
    db: string,
    write: (heights: number[], rows: RowWriter) => Promise<void>,
  ) =>
  async (a: number, b: number): Promise<void> => {
    const heights = Array.from({ length: b - a + 1 }, (_, i) => a + i);
    await write(heights, (table, values) =>
      ch.insert({ table: `${db}.${table}`, values, format: "JSONEachRow" }),
    );
    await settleDays(ch, db, a, b);
  };
