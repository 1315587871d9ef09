import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isAlive } from "@explorer/service/process";

/**
 * Files that carry insert data to the embedded engine, in `<store>/insert-spool/`. Each lives only
 * while its insert runs; its name starts with the process id. Files of a process that is gone
 * (killed mid-insert) are removed when a store opens on the directory.
 */
export interface Spool {
  /** Writes `chunks` to a new file, runs `use` on its path, and removes the file (whatever happens). */
  through<T>(chunks: readonly Uint8Array[], use: (file: string) => Promise<T>): Promise<T>;
}

let opened = 0;

export const openSpool = (storePath: string): Spool => {
  const dir = resolve(storePath, "insert-spool");
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir))
    if (!isAlive(Number.parseInt(f, 10))) rmSync(join(dir, f), { force: true });
  const prefix = `${process.pid}-${opened++}`;
  let next = 0;
  return {
    async through(chunks, use) {
      const file = join(dir, `${prefix}-${next++}.bin`);
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
