import type { ClickHouseClient } from "@clickhouse/client";
import { currentSet, migrate, repointViews, setDb, switchSet } from "@explorer/store";
import { TABLES } from "./writer.ts";

/** The current table set (creating set 1 on first use), migrated. */
export const openCurrentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<{ set: number; db: string }> => {
  let set = await currentSet(ch, base);
  if (set === undefined) {
    set = 1;
    await migrate(ch, setDb(base, set));
    await switchSet(ch, base, set);
    await repointViews(ch, base, set, TABLES);
  }
  const db = setDb(base, set);
  await migrate(ch, db);
  return { set, db };
};
