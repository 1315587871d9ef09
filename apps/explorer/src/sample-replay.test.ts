import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedLog } from "@explorer/raw-log";
import { describe, expect, it } from "vitest";
import { paceDelayMs, planReplay, replaySample } from "./sample-replay.ts";
import { sampleLog } from "./start.ts";

describe("sample replay", () => {
  it("plans the last blocks to be paced and never a negative split", () => {
    expect(planReplay(290, 120)).toEqual({ instantUpTo: 170, last: 290 });
    expect(planReplay(50, 120)).toEqual({ instantUpTo: 0, last: 50 });
    expect(planReplay(290, 0)).toEqual({ instantUpTo: 290, last: 290 });
  });

  it("waits as long as the recorded blocks were apart, capped, never negative", () => {
    expect(paceDelayMs(undefined, "2026-01-01T00:00:01Z")).toBe(0);
    expect(paceDelayMs("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.512Z")).toBe(512);
    expect(paceDelayMs("2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z")).toBe(10_000);
    expect(paceDelayMs("2026-01-01T00:00:01Z", "2026-01-01T00:00:00Z")).toBe(0);
  });

  it("copies every record of the bundled sample in order, pacing only the last blocks, and resumes", async () => {
    const src = mkdtempSync(join(tmpdir(), "sample-src-"));
    copyFileSync(sampleLog, join(src, "log.dat"));
    const sample = EmbeddedLog.open({ dir: src });
    const last = (await sample.lastHeight()) as number;
    const targetDir = mkdtempSync(join(tmpdir(), "sample-dst-"));
    let target = EmbeddedLog.open({ dir: targetDir });
    // The waits the paced part asks for, in place of a timer; the first run is stopped after a
    // few, the second resumes where it ended.
    const waits: number[] = [];
    const ac = new AbortController();
    let pacedFrom = 0;
    const first = replaySample(sample, target, planReplay(last, 6), {
      signal: ac.signal,
      onPacedStart: (h) => {
        pacedFrom = h;
      },
      pause: async (ms) => {
        waits.push(ms);
        if (waits.length === 3) ac.abort();
      },
    });
    await first;
    expect(pacedFrom).toBe(last - 5);
    const stoppedAt = (await target.lastHeight()) as number;
    expect(stoppedAt).toBe(last - 4); // two paced blocks in, the third stopped while it waited
    await target.close();
    target = EmbeddedLog.open({ dir: targetDir });
    const resumed: number[] = [];
    await replaySample(sample, target, planReplay(last, 6), {
      pause: async (ms) => {
        resumed.push(ms);
      },
    });
    // Only the paced blocks waited, each as long as the recorded blocks were apart (~0.5 s); the
    // resumed run starts at the last block written (already there: no wait), then waits again.
    expect(waits).toHaveLength(3);
    expect(resumed).toHaveLength(1 + (last - stoppedAt));
    expect(resumed[0]).toBe(0);
    for (const ms of [...waits, ...resumed.slice(1)]) expect(ms).toBeGreaterThan(100);
    const copied: string[] = [];
    for await (const e of target.read(1, { follow: false })) copied.push(`${e.kind}:${e.key}`);
    const original: string[] = [];
    for await (const e of sample.read(1, { follow: false })) original.push(`${e.kind}:${e.key}`);
    expect(copied).toEqual(original);
    await target.close();
    await sample.close();
  });
});
