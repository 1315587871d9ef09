import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, describe, expect, it } from "vitest";
import { type HeightEvents, type Loaded, StreamHub } from "./hub.ts";

const blocksOf = async (from: number, to: number): Promise<Loaded> => ({
  events: Array.from({ length: to - from + 1 }, (_, i) => ({
    height: from + i,
    block: { height: from + i },
    txs: [],
  })),
  through: to,
});

/** A Socket.IO server on loopback at the stream's path, and its base URL. */
const streamServer = async () => {
  const server = createServer();
  const sio = new Server(server, { path: "/api/1.0/stream" });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { sio, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

const MINE = "0x00000000000000000000000000000000000000aa";

/** Each height has a transaction of MINE and one of `others` (either its own). */
const mineAndOther =
  (others: string[]) =>
  async (from: number, to: number): Promise<Loaded> => ({
    events: Array.from({ length: to - from + 1 }, (_, i) => ({
      height: from + i,
      block: { height: from + i },
      txs: [
        { record: { txhash: `MINE${from + i}` }, addresses: [MINE] },
        { record: { txhash: `OTHER${from + i}` }, addresses: others },
      ],
    })),
    through: to,
  });

/** The texts of the error-message events the clients got (one each), as a set. */
const refusals = async (clients: Socket[]) =>
  new Set(
    await Promise.all(
      clients.map(
        (c) =>
          new Promise((resolve) =>
            c.on("error-message", (m: { error: string }) => resolve(m.error)),
          ),
      ),
    ),
  );

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

  it("serves the SPEC's {base_url}/stream namespace and the root alike; a reconnect older than a fresh instance is told so", async () => {
    const { sio, url } = await streamServer();
    const hub = new StreamHub(sio, blocksOf, () => undefined);
    hub.startAt(100); // a fresh instance: nothing buffered, heights up to 100 already projected
    const clients: Socket[] = [`${url}/stream`, url].map((u) =>
      connect(u, {
        path: "/api/1.0/stream",
        transports: ["websocket"],
        forceNew: true,
        auth: { since: 50 },
      }),
    );
    try {
      const seen = clients.map((): unknown[] => []);
      const blocks = clients.map(
        (c, i) =>
          new Promise<void>((resolve) => {
            c.on("replay-truncated", (t) => seen[i]!.push(["replay-truncated", t]));
            c.on("new-block", (b) => {
              seen[i]!.push(["new-block", b]);
              resolve();
            });
          }),
      );
      await Promise.all(
        clients.map(
          (c) =>
            new Promise((resolve, reject) => {
              c.on("connect", () => resolve(undefined));
              c.on("connect_error", reject);
            }),
        ),
      );
      await hub.projected(101);
      await Promise.all(blocks);
      for (const events of seen)
        expect(events).toEqual([
          ["replay-truncated", { from: 51, availableFrom: 101 }],
          ["new-block", { height: 101 }],
        ]);
    } finally {
      for (const c of clients) c.close();
      await sio.close();
    }
  });

  it("takes the address filter from auth as from the query; a malformed since is refused, not read as 0", async () => {
    const { sio, url: base } = await streamServer();
    const url = `${base}/stream`;
    const hub = new StreamHub(
      sio,
      mineAndOther(["0x00000000000000000000000000000000000000bb"]),
      (a) => (/^0x[0-9a-f]{40}$/.test(a) ? a : undefined),
    );
    hub.startAt(0);
    await hub.projected(3);
    const open = (auth: Record<string, unknown>) =>
      connect(url, { path: "/api/1.0/stream", transports: ["websocket"], forceNew: true, auth });
    const filtered = open({ address: MINE, since: 0 });
    const refused = [open({ since: "" }), open({ since: false }), open({ since: -5 })];
    try {
      const got: string[] = [];
      filtered.on("new-tx", (t: { txhash: string }) => got.push(t.txhash));
      expect(await refusals(refused)).toEqual(
        new Set(["since must be the last height seen (a non-negative integer)"]),
      );
      for (let i = 0; i < 100 && !got.includes("MINE3"); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual(["MINE1", "MINE2", "MINE3"]); // the replay, its own only
    } finally {
      for (const c of [filtered, ...refused]) c.close();
      await sio.close();
    }
  });

  it("a client that names events gets only those, live and in the replay; an unknown name is refused", async () => {
    const { sio, url: base } = await streamServer();
    const url = `${base}/stream`;
    const hub = new StreamHub(sio, mineAndOther([]), (a) =>
      /^0x[0-9a-f]{40}$/.test(a) ? a : undefined,
    );
    hub.startAt(0);
    await hub.projected(1);
    const open = (auth: Record<string, unknown>, query?: Record<string, string>) =>
      connect(url, {
        path: "/api/1.0/stream",
        transports: ["websocket"],
        forceNew: true,
        auth,
        ...(query ? { query } : {}),
      });
    const clients = {
      blocks: open({ since: 0, events: ["new-block"] }),
      txs: open({ since: 0 }, { events: "new-txs" }),
      mineTx: open({ since: 0, address: MINE, events: "new-tx, new-block" }),
      all: open({ since: 0 }),
    };
    const refused = [open({ events: ["new-blocks"] }), open({ events: [] }), open({ events: 5 })];
    try {
      const seen = Object.fromEntries(Object.keys(clients).map((k) => [k, [] as string[]]));
      for (const [name, c] of Object.entries(clients)) {
        c.on("new-block", (b: { height: number }) => seen[name]!.push(`block ${b.height}`));
        c.on("new-txs", (ts: { txhash: string }[]) =>
          seen[name]!.push(`txs ${ts.map((t) => t.txhash).join(" ")}`),
        );
        c.on("new-tx", (t: { txhash: string }) => seen[name]!.push(`tx ${t.txhash}`));
      }
      expect(await refusals(refused)).toEqual(
        new Set(["events must name one or more of new-block, new-txs, new-tx"]),
      );
      await Promise.all(
        Object.values(clients).map(
          (c) =>
            new Promise((resolve) =>
              c.connected ? resolve(0) : c.on("connect", () => resolve(0)),
            ),
        ),
      );
      await hub.projected(2); // live, after the replay of height 1
      for (let i = 0; i < 100 && !seen.all!.includes("tx OTHER2"); i++)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 100));
      expect(seen.blocks).toEqual(["block 1", "block 2"]);
      expect(seen.txs).toEqual(["txs MINE1 OTHER1", "txs MINE2 OTHER2"]);
      expect(seen.mineTx).toEqual(["block 1", "tx MINE1", "block 2", "tx MINE2"]);
      expect(seen.all).toEqual(
        [1, 2].flatMap((h) => [
          `block ${h}`,
          `txs MINE${h} OTHER${h}`,
          `tx MINE${h}`,
          `tx OTHER${h}`,
        ]),
      );
    } finally {
      for (const c of [...Object.values(clients), ...refused]) c.close();
      await sio.close();
    }
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
