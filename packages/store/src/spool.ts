import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ownTag, runsAs } from "@explorer/service/process";

/**
 * Files that carry insert data to the embedded engine, in `<store>/insert-spool/`. Each lives only
 * while its insert runs; its name starts with the process id and, where Linux gives it, the
 * process's start time (`<pid>-s<ticks>-…`). Files of a process that is gone (killed mid-insert)
 * are removed when a store opens on the directory: no process has its pid, or the one that has it
 * started at another time (a restarted container's process often gets the same pid, and a batch's
 * file can be 256 MiB).
 */
export interface Spool {
  /** Writes `chunks` to a new file, runs `use` on its path, and removes the file (whatever happens). */
  through<T>(chunks: readonly Uint8Array[], use: (file: string) => Promise<T>): Promise<T>;
}

let opened = 0;

/** Whether a spool file was left by a process that is gone (by its name: see above). */
const leftBehind = (file: string): boolean => {
  const m = /^(\d+)(?:-s(\d+))?-/.exec(file);
  return !runsAs(Number(m?.[1]), m?.[2]);
};

export const openSpool = (storePath: string): Spool => {
  const dir = resolve(storePath, "insert-spool");
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (leftBehind(f)) rmSync(join(dir, f), { force: true });
  const prefix = `${ownTag("-s")}-${opened++}`;
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
