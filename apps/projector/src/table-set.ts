import type { ClickHouseClient } from "@clickhouse/client";
import { ensureCurrentSet, repointViews } from "@explorer/store";
import { TABLES } from "./writer.ts";

/** The current table set (creating set 1, with its SQL views, on first use), migrated. */
export const openCurrentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<{ set: number; db: string }> => {
  const { set, db, created } = await ensureCurrentSet(ch, base);
  if (created) await repointViews(ch, base, set, TABLES);
  return { set, db };
};
