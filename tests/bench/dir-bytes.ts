import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Bytes of every file under a directory (a log, a key-value table). */
export const dirBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
