import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runToExit } from "./spawn-ts.ts";

/**
 * The tests' children (projector, ingester) that end by themselves run through `runToExit`: a
 * child hung while loading (blocked, using no CPU, as a thread waits in a deadlock) is started
 * again; a child that loaded and then waits is left alone.
 */
const dir = mkdtempSync(join(tmpdir(), "spawn-ts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Node child running `code`; `Atomics.wait` on a fresh buffer blocks it for good without CPU. */
const node = (code: string) => () => spawn(process.execPath, ["-e", code], { stdio: "ignore" });
const HANG = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";

describe("runToExit", () => {
  it("kills a child that hangs while loading and starts it again", async () => {
    const marker = join(dir, "started-once");
    const lines: string[] = [];
    const code = await runToExit(
      "a child",
      node(`const fs = require("fs"); const m = ${JSON.stringify(marker)};
        if (!fs.existsSync(m)) { fs.writeFileSync(m, ""); ${HANG} } process.exit(7);`),
      (l) => lines.push(l),
      1500,
    );
    expect(code).toBe(7);
    expect(existsSync(marker)).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^a child \(pid \d+\) used no CPU for 1\.5 s while loading/);
  });

  it("gives up the third time, saying so", async () => {
    const lines: string[] = [];
    await expect(
      runToExit("a stuck child", node(HANG), (l) => lines.push(l), 1000),
    ).rejects.toThrow(
      /a stuck child .* used no CPU for 1 s while loading its modules: killed, the third time/,
    );
    expect(lines).toHaveLength(2);
  });

  it("leaves alone a child that used its first second of CPU, then waits", async () => {
    const lines: string[] = [];
    const file = join(dir, "busy-then-idle.js");
    writeFileSync(
      file,
      `const t = process.cpuUsage(); while (process.cpuUsage(t).user < 1.2e6) {}
       setTimeout(() => process.exit(3), 2500);`,
    );
    const code = await runToExit(
      "a loaded child",
      () => spawn(process.execPath, [file], { stdio: "ignore" }),
      (l) => lines.push(l),
      1000,
    );
    expect([code, lines]).toEqual([3, []]);
  });
});
