import { describe, expect, it } from "vitest";
import { type LogEntry, LogOrderError, type RawLog } from "./port.ts";

/**
 * The contract every log adapter passes. `open(name)` opens (or reopens) the log called `name`;
 * each test uses its own name.
 */
export const logContract = (adapter: string, open: (name: string) => Promise<RawLog>) => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const text = (e: LogEntry) => new TextDecoder().decode(e.payload);
  const collect = async (log: RawLog, from: number) => {
    const out: LogEntry[] = [];
    for await (const e of log.read(from, { follow: false })) out.push(e);
    return out;
  };
  let n = 0;
  const fresh = () => `${adapter}-${process.pid}-${Date.now()}-${n++}`;

  describe(`${adapter} log contract`, () => {
    it("starts empty", async () => {
      const log = await open(fresh());
      expect(await log.lastHeight()).toBeUndefined();
      expect(await collect(log, 1)).toEqual([]);
      await log.close();
    });

    it("holds contiguous heights in order and reads them back byte for byte", async () => {
      const log = await open(fresh());
      for (let h = 10; h <= 14; h++)
        expect(await log.appendBlock(h, bytes(`block ${h}`))).toBe("appended");
      expect(await log.firstHeight()).toBe(10);
      expect(await log.lastHeight()).toBe(14);
      const all = await collect(log, 10);
      expect(all.map((e) => [e.kind, e.height, text(e)])).toEqual(
        [10, 11, 12, 13, 14].map((h) => ["block", h, `block ${h}`]),
      );
      expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => a - b));
      await log.close();
    });

    it("refuses a duplicate height without changing anything", async () => {
      const log = await open(fresh());
      for (let h = 1; h <= 3; h++) await log.appendBlock(h, bytes(`b${h}`));
      expect(await log.appendBlock(2, bytes("other bytes"))).toBe("duplicate");
      expect(await log.appendBlock(1, bytes("b1"))).toBe("duplicate");
      const all = await collect(log, 1);
      expect(all.map(text)).toEqual(["b1", "b2", "b3"]);
      await log.close();
    });

    it("refuses a gap with LogOrderError and stays as it was", async () => {
      const log = await open(fresh());
      await log.appendBlock(1, bytes("b1"));
      await expect(log.appendBlock(3, bytes("b3"))).rejects.toBeInstanceOf(LogOrderError);
      expect(await log.lastHeight()).toBe(1);
      expect((await collect(log, 1)).length).toBe(1);
      await log.close();
    });

    it("keeps metadata records in log order between blocks, once per key", async () => {
      const log = await open(fresh());
      await log.appendBlock(1, bytes("b1"));
      expect(await log.appendMetadata("k1", 1, bytes("m1"))).toBe("appended");
      await log.appendBlock(2, bytes("b2"));
      expect(await log.appendMetadata("k1", 2, bytes("again"))).toBe("duplicate");
      const all = await collect(log, 1);
      expect(all.map((e) => [e.kind, e.key, e.height, text(e)])).toEqual([
        ["block", "1", 1, "b1"],
        ["metadata", "k1", 1, "m1"],
        ["block", "2", 2, "b2"],
      ]);
      await log.close();
    });

    it("takes keys with dots (verification records: verify.<address>), once each", async () => {
      const log = await open(fresh());
      await log.appendBlock(1, bytes("b1"));
      const key = "verify.0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
      expect(await log.appendMetadata(key, 1, bytes("v"))).toBe("appended");
      expect(await log.appendMetadata(key, 1, bytes("again"))).toBe("duplicate");
      const all = await collect(log, 1);
      expect(all.map((e) => [e.kind, e.key, text(e)])).toEqual([
        ["block", "1", "b1"],
        ["metadata", key, "v"],
      ]);
      await log.close();
    });

    it("replays from any height", async () => {
      const log = await open(fresh());
      for (let h = 1; h <= 6; h++) await log.appendBlock(h, bytes(`b${h}`));
      expect((await collect(log, 4)).map((e) => e.height)).toEqual([4, 5, 6]);
      expect((await collect(log, 0)).map((e) => e.height)).toEqual([1, 2, 3, 4, 5, 6]);
      await log.close();
    });

    it("follows the head: a reader waiting at the end gets new records, and stops on abort", async () => {
      const log = await open(fresh());
      await log.appendBlock(1, bytes("b1"));
      const ac = new AbortController();
      const seen: number[] = [];
      const reader = (async () => {
        for await (const e of log.read(2, { signal: ac.signal })) {
          seen.push(e.height);
          if (seen.length === 2) ac.abort();
        }
      })();
      await new Promise((r) => setTimeout(r, 100));
      await log.appendBlock(2, bytes("b2"));
      await log.appendBlock(3, bytes("b3"));
      await reader;
      expect(seen).toEqual([2, 3]);
      await log.close();
    });

    it("keeps everything across close and reopen, and goes on from there", async () => {
      const name = fresh();
      const a = await open(name);
      for (let h = 1; h <= 3; h++) await a.appendBlock(h, bytes(`b${h}`));
      await a.appendMetadata("m", 3, bytes("meta"));
      await a.close();
      const b = await open(name);
      expect(await b.lastHeight()).toBe(3);
      expect(await b.appendBlock(3, bytes("b3"))).toBe("duplicate");
      expect(await b.appendBlock(4, bytes("b4"))).toBe("appended");
      expect((await collect(b, 1)).map((e) => `${e.kind}:${e.key}`)).toEqual([
        "block:1",
        "block:2",
        "block:3",
        "metadata:m",
        "block:4",
      ]);
      await b.close();
    });
  });
};
