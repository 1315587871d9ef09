import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isAlive } from "./process.ts";

describe("isAlive", () => {
  it("is true for a running process, false once it has exited", () => {
    expect(isAlive(process.pid)).toBe(true);
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(isAlive(gone)).toBe(false);
  });
  it("is false for ids that name no single process", () => {
    // 0 and negative ids would signal process groups; NaN comes from an unreadable pid file.
    for (const pid of [0, -1, Number.NaN, 1.5]) expect(isAlive(pid)).toBe(false);
  });
  it("is true for pid 1 (init: another user's process when not run as root, signalling it EPERM)", () => {
    expect(isAlive(1)).toBe(true);
  });
  // Needs root, to run the check as another user: this process, root's, is one it may not signal.
  it.skipIf(process.getuid?.() !== 0)("is true for a process of another user", () => {
    const r = spawnSync(
      process.execPath,
      ["-e", `process.stdout.write(String((${isAlive.toString()})(${process.pid})))`],
      { uid: 65534, gid: 65534, encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("true");
  });
});
