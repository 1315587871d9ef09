import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runToExit, spawnTs } from "./spawn-ts.ts";

const main = fileURLToPath(new URL("../../apps/ingester/src/main.ts", import.meta.url));

/** Starts the ingester as its own process (as an operator would), with settings as environment. */
export const startIngester = (
  env: Record<string, string>,
  logTo?: (line: string) => void,
): ChildProcess => {
  const child = spawnTs(main, [], {
    env: { ...process.env, PROGRESS: "false", METADATA_ALLOW_PRIVATE: "true", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (d: Buffer) => logTo?.(d.toString());
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  return child;
};

/** Runs the ingester to STOP_HEIGHT and resolves with its exit code. */
export const runIngester = async (
  env: Record<string, string>,
  logTo?: (line: string) => void,
): Promise<number | null> => runToExit("the ingester", () => startIngester(env, logTo), logTo);
