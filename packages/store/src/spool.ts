import { mkdirSync, rmSync } from "node:fs";
import { unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * Files that carry insert data to the embedded engine, in `<store>/insert-spool/`. Each lives only
 * while its insert runs. One process at a time owns a chDB data directory, so whatever is in the
 * spool when the store opens was left by a process that died mid-insert, and is removed.
 */
export interface Spool {
  /** Writes `body` to a new file, runs `use` on its path, and removes the file (whatever happens). */
  through<T>(body: Uint8Array, use: (file: string) => Promise<T>): Promise<T>;
}

export const openSpool = (storePath: string): Spool => {
  const dir = resolve(storePath, "insert-spool");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let next = 0;
  return {
    async through(body, use) {
      const file = join(dir, `${next++}.bin`);
      try {
        await writeFile(file, body);
        return await use(file);
      } finally {
        await unlink(file).catch(() => {});
      }
    },
  };
};
