import { io as connect, type Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { blocksOf, MINE, mineAndOther, refusals, streamServer } from "./hub.fixtures.ts";
import { StreamHub } from "./hub.ts";

describe("stream hub: a client's handshake", () => {
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
});
