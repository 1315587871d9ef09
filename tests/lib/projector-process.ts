import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runToExit, spawnTs } from "./spawn-ts.ts";

const main = fileURLToPath(new URL("../../apps/projector/src/main.ts", import.meta.url));

/**
 * Starts the projector as its own process, with settings as environment (and an optional
 * subcommand). `logTo` gets what it writes on both streams: its log is on stdout, the line saying
 * why it failed on stderr.
 */
export const startProjector = (
  env: Record<string, string>,
  args: string[] = [],
  logTo?: (l: string) => void,
): ChildProcess => {
  const child = spawnTs(main, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const out of [child.stdout, child.stderr])
    out?.on("data", (d: Buffer) => logTo?.(d.toString()));
  return child;
};

/**
 * Runs a projector process (`start` spawns it) to its end, keeping both its streams: its stdout,
 * or, when it exits other than 0, an error with its exit code, its stderr and the end of its stdout.
 */
const runKeepingOutput = async (
  what: string,
  start: () => ChildProcess,
  logTo?: (l: string) => void,
): Promise<string> => {
  const out = { stdout: "", stderr: "" };
  const code = await runToExit(
    what,
    () => {
      [out.stdout, out.stderr] = ["", ""];
      const child = start();
      child.stdout?.on("data", (d: Buffer) => {
        out.stdout += d.toString();
      });
      child.stderr?.on("data", (d: Buffer) => {
        out.stderr += d.toString();
      });
      return child;
    },
    logTo,
  );
  if (code !== 0)
    throw new Error(
      `${what} exited with ${code}\nstderr:\n${out.stderr || "(nothing)"}\nstdout (its end):\n${out.stdout.slice(-4000) || "(nothing)"}`,
    );
  return out.stdout;
};

/** Runs the projector to the end of the log (FOLLOW=false): 0, or an error with both its streams. */
export const runProjector = async (env: Record<string, string>, logTo?: (l: string) => void) => {
  await runKeepingOutput(
    "the projector",
    () => startProjector({ FOLLOW: "false", ...env }, [], logTo),
    logTo,
  );
  return 0;
};

/** Table checksums of a store, computed by the projector's `checksums` command. */
export const storeChecksums = async (
  storeUrl: string,
): Promise<Record<string, { rows: string; sum: string }>> => {
  const stdout = await runKeepingOutput("projector checksums", () =>
    startProjector({ STORE_URL: storeUrl }, ["checksums"]),
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
};
