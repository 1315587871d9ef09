import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/**
 * Whether a process with this id exists (signal 0 checks without signalling). One owned by another
 * user exists too (EPERM): a lock or spool file it holds is not stale.
 */
export const isAlive = (pid: number): boolean => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * A process as a lock names it, so that another process can tell later whether it still runs.
 * A pid alone cannot: containers that share a hostname have pid namespaces of their own (another's
 * live pid may be free here), and a pid is reused once its process has exited (a supervisor's
 * restart may get the same one). The boot, the pid namespace and the start time tell them apart
 * where Linux gives them (`/proc`). A restarted container has a new pid namespace: its
 * predecessor's marks are of a namespace this process cannot see, so taken as running (a lock
 * needs another way out for them, such as a lease).
 */
export interface ProcessMark {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`). */
  readonly boot?: string;
  /** The pid namespace (`/proc/self/ns/pid`'s inode). */
  readonly pidNs?: string;
  /** When the process started, in clock ticks since boot (`/proc/<pid>/stat`, field 22). */
  readonly start?: string;
}

const readOr = (read: () => string): string | undefined => {
  try {
    return read().trim() || undefined;
  } catch {
    return undefined;
  }
};

/**
 * The start time in a `/proc/<pid>/stat` line: `pid (comm) state ppid …`, field 22. The command
 * name may hold spaces and parentheses, so the fields are counted from its last `)`.
 */
export const startInStat = (stat: string): string =>
  stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";

/**
 * A process's start time in clock ticks since boot. Read in another time namespace (Linux 5.6+,
 * rare outside checkpoint/restore tools) it is shifted: a mark is compared only within one.
 */
export const startTicks = (pid: number): string | undefined =>
  readOr(() => startInStat(readFileSync(`/proc/${pid}/stat`, "utf8")));

/** This process's mark. */
export const thisProcess = (): ProcessMark => {
  const boot = readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8"));
  const pidNs = readOr(() => /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1] ?? "");
  const start = startTicks(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    ...(boot && { boot }),
    ...(pidNs && { pidNs }),
    ...(start && { start }),
  };
};

/** `pid <n> on <host>`, then `, boot <id>, pid namespace <n>, started <ticks>` as known. */
export const describeProcess = (m: ProcessMark): string =>
  [
    `pid ${m.pid} on ${m.host}`,
    m.boot && `boot ${m.boot}`,
    m.pidNs && `pid namespace ${m.pidNs}`,
    m.start && `started ${m.start}`,
  ]
    .filter(Boolean)
    .join(", ");

/** The mark a describeProcess text names, or undefined for any other text. */
export const parseProcess = (text: string): ProcessMark | undefined => {
  const m =
    /^pid (\d+) on ([^,]+?)(?:, boot ([\w-]+))?(?:, pid namespace (\d+))?(?:, started (\d+))?$/.exec(
      text,
    );
  if (!m) return undefined;
  const [, pid, host, boot, pidNs, start] = m;
  return {
    pid: Number(pid),
    host: host!,
    ...(boot && { boot }),
    ...(pidNs && { pidNs }),
    ...(start && { start }),
  };
};

/**
 * Whether the marked process is surely gone, seen from `here`: of this host, this boot and this
 * pid namespace, and no process has its pid, or the one that has it started at another time (the
 * pid was reused). Anything this process cannot see (another host or boot, another container's
 * pid namespace) is taken as running: a live holder's lock must not be taken over. A mark with
 * neither boot nor namespace (an earlier version's, or from a system without `/proc`) is judged by
 * host and pid alone; one with a boot but no namespace (all containers share the boot) is not
 * judged.
 */
export const isGone = (m: ProcessMark, here: ProcessMark = thisProcess()): boolean => {
  if (m.host !== here.host) return false;
  if (m.boot !== undefined && m.boot !== here.boot) return false;
  const marked = m.boot !== undefined || m.pidNs !== undefined;
  if (marked && (m.pidNs === undefined || m.pidNs !== here.pidNs)) return false;
  return !runsAs(m.pid, m.start);
};

/**
 * Whether a process with this pid runs and is the one that started at `start` (in this pid
 * namespace): without `start`, or when its start time cannot be read (another user's, under
 * `hidepid`), the pid alone says.
 */
export const runsAs = (pid: number, start: string | undefined): boolean => {
  if (!isAlive(pid)) return false;
  if (start === undefined) return true;
  const now = startTicks(pid);
  // unreadable: another user's under hidepid, or it exited since (then the pid says so again)
  return now === undefined ? isAlive(pid) : now === start;
};

/**
 * This process as a file's name or text gives it for runsAs: its pid, then `sep` and its start
 * time where Linux gives it.
 */
export const ownTag = (sep: string): string => {
  const start = startTicks(process.pid);
  return start === undefined ? String(process.pid) : `${process.pid}${sep}${start}`;
};
