import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EmbeddedLog } from "@explorer/raw-log";
import { migrate, openClickHouse } from "@explorer/store";

/** The bundled sample chain's log (every message type and token standard). */
export const SAMPLE_LOG = fileURLToPath(
  new URL("../../../samples/reference-chain/log.dat", import.meta.url),
);

/** The sample's log copied into `dir`, and a chDB store there with the table sets `dbs` migrated. */
export const sampleStore = async (dir: string, dbs: readonly string[]) => {
  mkdirSync(join(dir, "log"));
  copyFileSync(SAMPLE_LOG, join(dir, "log", "log.dat"));
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  for (const db of dbs) await migrate(ch, db);
  return { log, ch };
};
