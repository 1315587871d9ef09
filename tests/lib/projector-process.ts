import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runToExit, spawnTs } from "./spawn-ts.ts";

const main = fileURLToPath(new URL("../../apps/projector/src/main.ts", import.meta.url));

/** Starts the projector as its own process, with settings as environment (and an optional subcommand). */
export const startProjector = (
  env: Record<string, string>,
  args: string[] = [],
  logTo?: (l: string) => void,
): ChildProcess => {
  const child = spawnTs(main, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (d: Buffer) => logTo?.(d.toString()));
  return child;
};

export const runProjector = async (env: Record<string, string>, logTo?: (l: string) => void) =>
  runToExit("the projector", () => startProjector({ FOLLOW: "false", ...env }, [], logTo), logTo);

/** Table checksums of a store, computed by the projector's `checksums` command. */
export const storeChecksums = async (
  storeUrl: string,
): Promise<Record<string, { rows: string; sum: string }>> => {
  let out = "";
  const code = await runToExit("projector checksums", () => {
    out = "";
    const child = startProjector({ STORE_URL: storeUrl }, ["checksums"]);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    return child;
  });
  if (code !== 0) throw new Error(`checksums failed with ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1)!);
};
