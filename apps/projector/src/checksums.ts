import type { ClickHouseClient } from "@clickhouse/client";
import { TABLES } from "./writer.ts";

/**
 * Per table: rows and a checksum of their content, read with FINAL so that replayed duplicates
 * not yet merged count once. Two table sets with equal checksums hold the same data.
 */
export const checksums = async (
  ch: ClickHouseClient,
  db: string,
): Promise<Record<string, { rows: string; sum: string }>> => {
  const out: Record<string, { rows: string; sum: string }> = {};
  for (const t of [...TABLES, "progress"]) {
    const rs = await ch.query({
      query: `SELECT toString(count()) AS rows, toString(sum(cityHash64(*))) AS sum FROM ${db}.${t} FINAL`,
      format: "JSONEachRow",
    });
    const [row] = await rs.json<{ rows: string; sum: string }>();
    out[t] = row ?? { rows: "0", sum: "0" };
  }
  return out;
};
