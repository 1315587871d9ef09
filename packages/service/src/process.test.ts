import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import {
  describeProcess,
  isAlive,
  isGone,
  type ProcessMark,
  parseProcess,
  runsAs,
  startInStat,
  startTicks,
  thisProcess,
} from "./process.ts";

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

describe("process marks", () => {
  const here = thisProcess();
  const linux = process.platform === "linux";

  it("name this process by pid and host, and on Linux by boot, pid namespace and start time", () => {
    expect(here).toMatchObject({ pid: process.pid, host: hostname() });
    if (linux) {
      expect(here.boot).toMatch(/^[0-9a-f-]{36}$/);
      expect(here.pidNs).toMatch(/^\d+$/);
      expect(here.start).toMatch(/^\d+$/);
      expect(startTicks(process.pid)).toBe(here.start);
    }
    expect(parseProcess(describeProcess(here))).toEqual(here);
    expect(describeProcess({ pid: 7, host: "h" })).toBe("pid 7 on h");
    expect(parseProcess("pid 7 on h")).toEqual({ pid: 7, host: "h" });
    for (const text of ["", "pid x on h", "pid 7 on ", "pid 7 on h, started soon"])
      expect(parseProcess(text), text).toBeUndefined();
  });

  it("a start time is read past a command name holding spaces and parentheses", () => {
    const fields = "S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21";
    expect(startInStat(`4242 (a) b (c) d) ${fields}`)).toBe("987654");
    expect(startInStat(`4242 (node) ${fields}`)).toBe("987654");
    expect(startInStat("4242 (node) S 1")).toBe("");
  });

  it("a live process is not gone; an exited one of this host, boot and namespace is", () => {
    expect(isGone(here)).toBe(false);
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(isGone({ ...here, pid: exited, start: "1" })).toBe(true);
    expect(isGone({ pid: exited, host: here.host })).toBe(true); // an earlier version's mark
  });

  it.runIf(linux)(
    "a live pid that started at another time is another process: the marked one is gone",
    () => {
      expect(isGone({ ...here, start: String(Number(here.start) + 1) })).toBe(true);
      expect(isGone({ pid: here.pid, host: here.host })).toBe(false); // no start time: pid alone
    },
  );

  it("runsAs: a pid runs as the process that started then, or by pid alone without a start", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    expect(runsAs(process.pid, undefined)).toBe(true);
    expect(runsAs(process.pid, here.start)).toBe(true);
    expect(runsAs(exited, undefined)).toBe(false);
    expect(runsAs(exited, "1")).toBe(false);
    if (here.start !== undefined)
      expect(runsAs(process.pid, String(Number(here.start) + 1))).toBe(false);
  });

  it("what this process cannot see is taken as running", () => {
    const exited = spawnSync(process.execPath, ["-e", ""]).pid;
    const gone: ProcessMark = { ...here, pid: exited, boot: "b", pidNs: "1", start: "1" };
    const local = { ...here, boot: "b", pidNs: "1" };
    expect(isGone(gone, local)).toBe(true);
    expect(isGone({ ...gone, host: `${here.host}-other` }, local)).toBe(false); // another host
    expect(isGone({ ...gone, boot: "c" }, local)).toBe(false); // another boot (or machine)
    expect(isGone({ ...gone, pidNs: "2" }, local)).toBe(false); // another container's pids
    const { pidNs: _, ...noNs } = gone;
    expect(isGone(noNs, local)).toBe(false); // a boot, but whose pids: containers share the boot
  });
});
