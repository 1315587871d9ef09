import type { ClickHouseClient } from "@clickhouse/client";
import { ensureCurrentSet, repointViews } from "@explorer/store";
import { TABLES } from "./writer.ts";

/** The current table set (creating set 1 on first use), migrated, with its SQL views over every table. */
export const openCurrentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<{ set: number; db: string }> => {
  const { set, db } = await ensureCurrentSet(ch, base);
  await repointViews(ch, base, set, TABLES); // idempotent; also covers tables added by a new migration
  return { set, db };
};
