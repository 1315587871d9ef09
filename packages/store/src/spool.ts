import { mkdirSync, rmSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * Files that carry insert data to the embedded engine, in `<store>/insert-spool/`. Each lives only
 * while its insert runs. One process at a time owns a chDB data directory, so whatever is in the
 * spool when the store opens was left by a process that died mid-insert, and is removed.
 */
export interface Spool {
  /** Writes `chunks` to a new file, runs `use` on its path, and removes the file (whatever happens). */
  through<T>(chunks: readonly Uint8Array[], use: (file: string) => Promise<T>): Promise<T>;
}

export const openSpool = (storePath: string): Spool => {
  const dir = resolve(storePath, "insert-spool");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let next = 0;
  return {
    async through(chunks, use) {
      const file = join(dir, `${next++}.bin`);
      try {
        const h = await open(file, "w");
        try {
          await h.writev(chunks as Uint8Array[]);
        } finally {
          await h.close();
        }
        return await use(file);
      } finally {
        await unlink(file).catch(() => {});
      }
    },
  };
};
