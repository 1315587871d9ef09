import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { ownTag, runsAs } from "@explorer/service/process";

/** Lock files this process holds: a second open of the same one here is refused too. */
const held = new Set<string>();

/** Refused: a live process holds the lock (`code` ELOCKED: the apps say it in one line). */
const locked = (message: string) => Object.assign(new Error(message), { code: "ELOCKED" });

/**
 * Takes the lock file `file` for `what` (named in a refusal), or throws ELOCKED while a live
 * process holds it. The file holds `<pid> <start time>` (the start time where Linux gives it), so
 * a pid that another process has since taken (a restarted container's often has the same) is not
 * its holder. It is written whole under another name and linked into place, so it exists only
 * complete and only if absent: of two takers at the same moment, one is refused. A stale one is
 * replaced whole (two that replace the same stale lock at the same moment are not told apart).
 */
export const takeLockFile = (file: string, what: string): void => {
  if (held.has(file)) throw locked(`${what} is already open in this process (${file})`);
  const me = ownTag(" ");
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(tmp, me);
  try {
    for (let tries = 0; ; tries++) {
      try {
        linkSync(tmp, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST" || tries >= 5) throw e;
      }
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") continue; // let go meanwhile
        throw e;
      }
      const [pidText = "", start] = text.trim().split(" ");
      const pid = Number(pidText);
      // This process's pid in a lock it does not hold: an earlier process's, with the same pid.
      if (pid !== process.pid && runsAs(pid, start))
        throw locked(
          `${what} is in use by process ${pid} (${file}); stop it first, or remove ${file} if process ${pid} is not the one using it`,
        );
      renameSync(tmp, file);
      break;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
  held.add(file);
};

/** Lets the lock file go: removed if it is still this process's (not taken over meanwhile). */
export const releaseLockFile = (file: string): void => {
  if (!held.delete(file)) return;
  try {
    if (readFileSync(file, "utf8").trim() === ownTag(" ")) rmSync(file, { force: true });
  } catch {
    // gone already
  }
};
