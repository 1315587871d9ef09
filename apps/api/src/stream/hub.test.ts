import { Server } from "socket.io";
import { afterAll, describe, expect, it } from "vitest";
import { type HeightEvents, StreamHub } from "./hub.ts";

const io = new Server();
afterAll(() => io.disconnectSockets(true)); // never attached to a server: nothing else to close

describe("stream hub", () => {
  it("with a slow store, a round catches up with every height announced meanwhile, in order", async () => {
    const loads: [number, number][] = [];
    const hub = new StreamHub(
      io,
      async (from, to) => {
        loads.push([from, to]);
        await new Promise((r) => setTimeout(r, 50)); // a store under load
        return Array.from(
          { length: to - from + 1 },
          (_, i): HeightEvents => ({
            height: from + i,
            block: { height: from + i },
            txs: [],
          }),
        );
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
  });
});
