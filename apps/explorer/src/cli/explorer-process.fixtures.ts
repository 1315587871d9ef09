import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const bin = fileURLToPath(new URL("../main.ts", import.meta.url));

/** Runs `explorer <args>` as a child process (no config file): its exit code and output. */
export const explorer = async (...args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", bin, ...args],
      { env: { ...process.env, EXPLORER_CONFIG: "" } },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
};
