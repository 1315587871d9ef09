import type { ClickHouseClient } from "@clickhouse/client";
import { ANALYTICS_TABLES, KEY_VALUE_TABLES } from "@explorer/store";
import { TABLES } from "./writer.ts";

/**
 * Per table, the key-value ones too: rows and a checksum of their content, read with FINAL so that
 * replayed duplicates not yet merged count once. Two table sets with equal checksums hold the
 * same data.
 */
export const checksums = async (
  ch: ClickHouseClient,
  db: string,
): Promise<Record<string, { rows: string; sum: string }>> => {
  const out: Record<string, { rows: string; sum: string }> = {};
  // the key-value tables hold one row per key: no FINAL there (nor any to apply)
  const tables = [...TABLES, ...ANALYTICS_TABLES, "progress"].map((t) => [t, " FINAL"] as const);
  for (const [t, final] of [...tables, ...KEY_VALUE_TABLES.map((t) => [t, ""] as const)]) {
    const rs = await ch.query({
      query: `SELECT toString(count()) AS rows, toString(sum(cityHash64(*))) AS sum FROM ${db}.${t}${final}`,
      format: "JSONEachRow",
    });
    const [row] = await rs.json<{ rows: string; sum: string }>();
    out[t] = row ?? { rows: "0", sum: "0" };
  }
  return out;
};
