import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTicks } from "@explorer/service/process";
import { describe, expect, it } from "vitest";
import { logContract } from "./contract.ts";
import { EmbeddedLog } from "./embedded.ts";

const root = mkdtempSync(join(tmpdir(), "embedded-log-"));
logContract("embedded", async (name) => EmbeddedLog.open({ dir: join(root, name) }));

describe("embedded log crash safety", () => {
  it("cuts a torn last record at open and keeps every whole one", async () => {
    const dir = join(root, "torn");
    const log = EmbeddedLog.open({ dir });
    for (let h = 1; h <= 3; h++) await log.appendBlock(h, new Uint8Array(100).fill(h));
    await log.close();
    const size = statSync(join(dir, "log.dat")).size;
    appendFileSync(join(dir, "log.dat"), Buffer.from([200, 0, 0, 0, 1, 2, 3])); // a frame cut short
    const again = EmbeddedLog.open({ dir });
    expect(await again.lastHeight()).toBe(3);
    expect(statSync(join(dir, "log.dat")).size).toBe(size);
    expect(await again.appendBlock(4, new Uint8Array([4]))).toBe("appended");
    await again.close();
  });

  it("survives kill -9 of a writer in the middle of appending: contiguous, nothing torn", async () => {
    const dir = join(root, "killed");
    const script = `
      import { EmbeddedLog } from ${JSON.stringify(new URL("./embedded.ts", import.meta.url).pathname)};
      const log = EmbeddedLog.open({ dir: ${JSON.stringify(dir)} });
      let h = ((await log.lastHeight()) ?? 0) + 1;
      await log.appendBlock(h++, new Uint8Array(4096 + (h % 7) * 1000).fill(h % 256));
      process.stdout.write("appending\\n");
      for (;;) await log.appendBlock(h++, new Uint8Array(4096 + (h % 7) * 1000).fill(h % 256));
    `;
    for (let round = 0; round < 5; round++) {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      // Killed while appending: after its first append (starting node can take seconds on a busy host).
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the writer did not start")), 60_000);
        child.stdout!.once("data", () => resolve(clearTimeout(timer)));
      });
      await new Promise((r) => setTimeout(r, Math.random() * 400));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    const log = EmbeddedLog.open({ dir });
    const last = (await log.lastHeight()) ?? 0;
    expect(last).toBeGreaterThan(0);
    let expected = 1;
    for await (const e of log.read(1, { follow: false })) {
      expect(e.height).toBe(expected);
      expect(e.payload.length).toBe(4096 + ((e.height + 1) % 7) * 1000);
      expect(e.payload.every((b) => b === (e.height + 1) % 256)).toBe(true);
      expected++;
    }
    expect(expected - 1).toBe(last);
    await log.close();
  }, 180_000);

  it("refuses a second process while the first holds the log", async () => {
    const dir = join(root, "locked");
    const log = EmbeddedLog.open({ dir });
    // The error's code (an operator's mistake, said in one line by the apps) goes to stderr too.
    const script = `import { EmbeddedLog } from ${JSON.stringify(new URL("./embedded.ts", import.meta.url).pathname)}; try { EmbeddedLog.open({ dir: ${JSON.stringify(dir)} }); } catch (e) { console.error(e.code, e.message); process.exit(1); }`;
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).not.toBe(0);
    expect(err).toMatch(/^ELOCKED the embedded log is in use by process \d+ /);
    await log.close();
  }, 30_000);

  it("takes over a lock left by a process that is gone, or whose pid another process now has", async () => {
    const dir = join(root, "stale");
    await EmbeddedLog.open({ dir }).close();
    const lock = join(dir, "LOCK");
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      await new Promise((r) => other.once("spawn", r));
      const pid = other.pid!;
      const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
      const start = startTicks(pid);
      const stale = [`${dead}`, `${dead} 1`];
      if (start !== undefined) stale.push(`${pid} ${Number(start) + 1}`); // another process's pid now
      for (const held of stale) {
        writeFileSync(lock, held);
        const log = EmbeddedLog.open({ dir });
        expect(readFileSync(lock, "utf8"), held).toMatch(new RegExp(`^${process.pid}( \\d+)?$`));
        await log.close();
      }
      // its holder alive (by pid alone, as an earlier version wrote it, or with its start time)
      for (const held of [`${pid}`, ...(start === undefined ? [] : [`${pid} ${start}`])]) {
        writeFileSync(lock, held);
        expect(() => EmbeddedLog.open({ dir }), held).toThrow(/in use by process/);
      }
    } finally {
      other.kill();
    }
  }, 30_000);

  it("one open of a log per process; a failed open and a close let go only of their own lock", async () => {
    const dir = join(root, "own");
    const lock = join(dir, "LOCK");
    const log = EmbeddedLog.open({ dir });
    expect(() => EmbeddedLog.open({ dir })).toThrow(/already open in this process/);
    await log.close();
    expect(existsSync(lock)).toBe(false);
    // an empty lock (a process killed between creating and writing it) is left behind
    writeFileSync(lock, "");
    const again = EmbeddedLog.open({ dir });
    writeFileSync(lock, "1"); // taken over meanwhile (pid 1 runs): its close leaves that one
    await again.close();
    expect(readFileSync(lock, "utf8")).toBe("1");
    rmSync(lock);
    // the log file cannot be opened: the lock taken for it is let go
    const broken = join(root, "broken");
    mkdirSync(join(broken, "log.dat"), { recursive: true });
    expect(() => EmbeddedLog.open({ dir: broken })).toThrow(/EISDIR/);
    expect(existsSync(join(broken, "LOCK"))).toBe(false);
  });
});
