import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PROJECTOR_NODE_FLAGS } from "@explorer/projector";
import type { Figure } from "./table.ts";

/**
 * Projector throughput (see project-runs.ts for what is measured), in a process of its own run
 * with the projector's Node.js flags (PROJECTOR_NODE_FLAGS), as `explorer project` runs: the flags
 * are the process's, and this one runs the other benches too.
 */
export const run = async (): Promise<Figure[]> => {
  const file = fileURLToPath(new URL("./project-runs.ts", import.meta.url));
  const child = spawn(process.execPath, [...PROJECTOR_NODE_FLAGS, "--import", "tsx", file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`the project bench's process exited with ${code}`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as Figure[];
};
