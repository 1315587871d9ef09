import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { isAlive } from "@explorer/service/process";

/** Runs a command to completion; throws with its output when it fails. */
export const run = (
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): string => {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    input: opts.input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} exited with ${r.status}:\n${r.stderr}\n${r.stdout}`);
  }
  return r.stdout;
};

/** Starts a long-running process detached from this one, output appended to logFile, pid recorded. */
export const startDetached = (
  cmd: string,
  args: readonly string[],
  files: { log: string; pid: string },
  env: NodeJS.ProcessEnv = process.env,
): number => {
  const fd = openSync(files.log, "a");
  const child = spawn(cmd, args, { detached: true, stdio: ["ignore", fd, fd], env });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${cmd} did not start`);
  child.unref();
  writeFileSync(files.pid, String(child.pid));
  return child.pid;
};

export const readPid = (pidFile: string): number | undefined => {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  return isAlive(pid) ? pid : undefined;
};

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Stops a process politely, then firmly; resolves when it is gone. */
export const stopProcess = async (pid: number, graceMs = 10_000): Promise<void> => {
  if (!isAlive(pid)) return;
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, "SIGKILL");
  while (isAlive(pid)) await sleep(50);
};

/** Polls until check() resolves truthy, or throws what it last saw after timeoutMs. */
export const waitFor = async <T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`,
  );
};
