import { Server } from "socket.io";
import { afterAll, describe, expect, it } from "vitest";
import type { HeightEvents } from "./events.ts";
import { blocksOf } from "./hub.fixtures.ts";
import { StreamHub } from "./hub.ts";

const io = new Server();
afterAll(() => io.disconnectSockets(true)); // never attached to a server: nothing else to close

describe("stream hub: rounds of loads", () => {
  it("with a slow store, a round catches up with every height announced meanwhile, in order", async () => {
    const loads: [number, number][] = [];
    const hub = new StreamHub(
      io,
      async (from, to) => {
        loads.push([from, to]);
        await new Promise((r) => setTimeout(r, 50)); // a store under load
        const events = Array.from(
          { length: to - from + 1 },
          (_, i): HeightEvents => ({
            height: from + i,
            block: { height: from + i },
            txs: [],
          }),
        );
        return { events, through: to };
      },
      () => undefined,
    );
    hub.startAt(0);
    const rounds = Array.from({ length: 60 }, (_, i) => hub.projected(i + 1));
    await Promise.all(rounds);
    expect(hub.lastEmitted).toBe(60);
    // Contiguous, ascending, covering 1…60 exactly, in a few loads (not one per height).
    expect(loads[0]![0]).toBe(1);
    for (let i = 1; i < loads.length; i++) expect(loads[i]![0]).toBe(loads[i - 1]![1] + 1);
    expect(loads.at(-1)![1]).toBe(60);
    expect(loads.length).toBeLessThanOrEqual(3);
    // more than one load's 100 heights at once: all in the same round, no wait between loads
    loads.length = 0;
    await hub.projected(310);
    expect(hub.lastEmitted).toBe(310);
    expect(loads).toEqual([
      [61, 160],
      [161, 260],
      [261, 310],
    ]);
  });

  it("a store behind the announcement (a replica) is asked again: heights come late, none skipped; heights below a store's first are not waited for", async () => {
    let held = 1; // the store's projected height
    const first = 3; // its first block (it was started at a later height)
    const hub = new StreamHub(
      io,
      async (from, to) => {
        const through = Math.min(to, held);
        const events: HeightEvents[] = [];
        for (let h = Math.max(from, first); h <= through; h++)
          events.push({ height: h, block: { height: h }, txs: [] });
        return { events, through };
      },
      () => undefined,
      { retryMs: 20 },
    );
    hub.startAt(0);
    await hub.projected(6); // announced up to 6; the store holds only 1, where it has no block
    expect([hub.lastEmitted, hub.buffered]).toEqual([1, 0]);
    held = 4;
    for (let i = 0; i < 50 && hub.lastEmitted! < 4; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect([hub.lastEmitted, hub.buffered]).toEqual([4, 2]); // 3 and 4, with no new announcement
    held = 6;
    for (let i = 0; i < 50 && hub.lastEmitted! < 6; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect([hub.lastEmitted, hub.buffered]).toEqual([6, 4]);
  });
  it("an announcement that is not a height is ignored; a failed load is tried again without a new announcement", async () => {
    let fail = 1;
    let loads = 0;
    const hub = new StreamHub(
      io,
      async (from, to) => {
        loads++;
        if (fail-- > 0) throw new Error("store away");
        return blocksOf(from, to);
      },
      () => undefined,
      { retryMs: 10 },
    );
    hub.startAt(2);
    await hub.projected(Number.NaN);
    await hub.projected(-1);
    await hub.projected(5); // fails once
    expect(hub.lastEmitted).toBe(2);
    for (let i = 0; i < 100 && hub.lastEmitted !== 5; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(hub.lastEmitted).toBe(5);
    await hub.projected(6);
    expect(hub.lastEmitted).toBe(6);
    // closed while a failed load waits to be tried again: never tried
    fail = 1;
    const before = loads;
    await hub.projected(7);
    hub.close();
    await new Promise((r) => setTimeout(r, 100));
    expect([loads - before, hub.lastEmitted]).toEqual([1, 6]);
  });
});
