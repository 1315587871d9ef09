import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

/** Runs a TypeScript file as its own Node process (through tsx), as the project's scripts run. */
export const spawnTs = (
  file: string,
  args: readonly string[] = [],
  opts: SpawnOptions = {},
): ChildProcess => spawn(process.execPath, ["--import", "tsx", file, ...args], opts);
