import type { ClickHouseClient } from "@clickhouse/client";
import { currentSet, ensureCurrentSet, repointViews } from "@explorer/store";
import { TABLES } from "./writer.ts";

/**
 * The current table set (creating set 1 on first use), migrated, with its SQL views over every
 * table. A re-index that switches while the views are repointed here repoints them to its set
 * first; they are then repointed again, to the set now current (else they stayed on the old one
 * until the next batch noticed the switch).
 */
export const openCurrentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<{ set: number; db: string }> => {
  for (;;) {
    const { set, db } = await ensureCurrentSet(ch, base);
    await repointViews(ch, base, set, TABLES); // idempotent; also covers tables added by a new migration
    if ((await currentSet(ch, base)) === set) return { set, db };
  }
};
