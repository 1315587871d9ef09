import { io as connect, type Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { blocksOf, MINE, refusals, streamServer } from "./hub.fixtures.ts";
import { StreamHub } from "./hub.ts";

describe("stream hub: replay to a reconnecting client", () => {
  it("a client that saw further than this instance gets nothing twice; one far beyond is refused", async () => {
    const { sio, url } = await streamServer();
    const hub = new StreamHub(sio, blocksOf, () => undefined, { bufferSize: 50 });
    hub.startAt(100); // this instance is at 100; the client saw 105 on another one
    const open = (since: number) =>
      connect(url, {
        path: "/api/1.0/stream",
        transports: ["websocket"],
        forceNew: true,
        auth: { since },
      });
    const ahead = open(105);
    const far = open(151);
    try {
      const seen: unknown[] = [];
      ahead.on("replay-truncated", (t) => seen.push(["replay-truncated", t]));
      ahead.on("new-block", (b: { height: number }) => seen.push(b.height));
      expect(await refusals([far])).toEqual(
        new Set([
          "since 151 is more than 50 heights beyond this stream's height 100 (another chain?)",
        ]),
      );
      await new Promise((r) => (ahead.connected ? r(0) : ahead.on("connect", () => r(0))));
      await hub.projected(104);
      await hub.projected(107);
      for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual([106, 107]);
    } finally {
      for (const c of [ahead, far]) c.close();
      await sio.close();
    }
  });

  it("a replay sends the newest heights that fit its byte budget, after a replay-truncated naming the first", async () => {
    const { sio, url } = await streamServer();
    const pad = "x".repeat(1000);
    const hub = new StreamHub(
      sio,
      async (from, to) => ({
        events: Array.from({ length: to - from + 1 }, (_, i) => ({
          height: from + i,
          block: { height: from + i, pad },
          txs: [{ record: { txhash: `T${from + i}`, pad }, addresses: [MINE] }],
        })),
        through: to,
      }),
      () => undefined,
      { replayBytes: 10_000 },
    );
    hub.startAt(0);
    await hub.projected(20);
    const blocksOnly = connect(url, {
      path: "/api/1.0/stream",
      transports: ["websocket"],
      forceNew: true,
      auth: { since: 0, events: ["new-block"] },
    });
    const everything = connect(url, {
      path: "/api/1.0/stream",
      transports: ["websocket"],
      forceNew: true,
      auth: { since: 0 },
    });
    try {
      const got = (c: Socket) =>
        new Promise<unknown[]>((resolve) => {
          const seen: unknown[] = [];
          c.on("replay-truncated", (t) => seen.push(t));
          c.on("new-block", (b: { height: number }) => {
            seen.push(b.height);
            if (b.height === 20) setTimeout(() => resolve(seen), 50);
          });
        });
      const [blocks, all] = await Promise.all([got(blocksOnly), got(everything)]);
      // ~1 KB a block: 9 fit in 10,000 bytes; with each transaction twice (new-txs and new-tx),
      // ~3 KB a height: 3 fit.
      expect(blocks).toEqual([
        { from: 1, availableFrom: 12 },
        ...Array.from({ length: 9 }, (_, i) => 12 + i),
      ]);
      expect(all).toEqual([{ from: 1, availableFrom: 18 }, 18, 19, 20]);
    } finally {
      for (const c of [blocksOnly, everything]) c.close();
      await sio.close();
    }
  });
});
