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
    // Stop the paced part after a few blocks, then resume in a new run.
    const ac = new AbortController();
    let pacedFrom = 0;
    const t0 = Date.now();
    const first = replaySample(sample, target, planReplay(last, 6), {
      signal: ac.signal,
      onPacedStart: (h) => {
        pacedFrom = h;
        setTimeout(() => ac.abort(), 700);
      },
    });
    await first;
    expect(pacedFrom).toBe(last - 5);
    const stoppedAt = (await target.lastHeight()) as number;
    expect(stoppedAt).toBeGreaterThanOrEqual(last - 6);
    expect(stoppedAt).toBeLessThan(last);
    await target.close();
    target = EmbeddedLog.open({ dir: targetDir });
    await replaySample(sample, target, planReplay(last, 6));
    expect(Date.now() - t0).toBeGreaterThan(1000); // the paced blocks were ~500 ms apart
    const copied: string[] = [];
    for await (const e of target.read(1, { follow: false })) copied.push(`${e.kind}:${e.key}`);
    const original: string[] = [];
    for await (const e of sample.read(1, { follow: false })) original.push(`${e.kind}:${e.key}`);
    expect(copied).toEqual(original);
    await target.close();
    await sample.close();
  });
});
