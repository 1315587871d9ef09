import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** Runs a TypeScript file as its own Node process (through tsx), as the project's scripts run. */
export const spawnTs = (
  file: string,
  args: readonly string[] = [],
  opts: SpawnOptions = {},
): ChildProcess => spawn(process.execPath, ["--import", "tsx", file, ...args], opts);

export const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((r) => child.once("exit", (code) => r(code)));

/** CPU seconds (user and system, every thread) a process has used; undefined off Linux or once it is gone. */
export const cpuSeconds = (pid: number): number | undefined => {
  try {
    // /proc/<pid>/stat: fields after the command's closing parenthesis; utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
};

/**
 * A child still loading (no output yet, under 1 s of CPU: loading takes 1.5-2.5 s here) that used
 * none for `quietMs`.
 */
const LOADING_CPU_S = 1;
const hungWhileLoading = (child: ChildProcess, quietMs: number): Promise<"hung"> =>
  new Promise((resolve) => {
    let last = -1;
    let since = Date.now();
    let spoke = false;
    for (const out of [child.stdout, child.stderr])
      out?.once("data", () => {
        spoke = true;
      });
    const timer = setInterval(() => {
      const cpu = child.pid === undefined ? undefined : cpuSeconds(child.pid);
      if (spoke || cpu === undefined || cpu >= LOADING_CPU_S) return clearInterval(timer);
      if (cpu !== last) [last, since] = [cpu, Date.now()];
      else if (Date.now() - since >= quietMs) {
        clearInterval(timer);
        resolve("hung");
      }
    }, 500);
    child.once("exit", () => clearInterval(timer));
  });

/**
 * Runs a child that ends by itself (`start` spawns it) and resolves with its exit code. A child
 * that hangs while Node loads its modules (once in CI: no CPU used for 17 minutes, the Node 20
 * module-hooks deadlock class that tsx's `--import` can meet, nodejs/node#50948) is killed and
 * started again, at most twice, with a line to `log`; it never ran our code, so nothing is lost.
 */
export const runToExit = async (
  what: string,
  start: () => ChildProcess,
  log: (line: string) => void = console.warn,
  quietMs = 15_000,
): Promise<number | null> => {
  for (let attempt = 1; ; attempt++) {
    const child = start();
    const end = await Promise.race([exited(child), hungWhileLoading(child, quietMs)]);
    if (end !== "hung") return end;
    child.kill("SIGKILL");
    await exited(child);
    const line = `${what} (pid ${child.pid}) used no CPU for ${quietMs / 1000} s while loading its modules: killed`;
    if (attempt === 3) throw new Error(`${line}, the third time`);
    log(`${line}; starting it again\n`);
  }
};
