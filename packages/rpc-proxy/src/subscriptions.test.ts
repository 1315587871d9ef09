import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { parseUpstreams, UpstreamPool } from "./pool.ts";
import { MAX_PER_CLIENT, SubscriptionHub } from "./subscriptions.ts";

/**
 * A stand-in node's WebSocket: eth_subscribe answers `0x<n>` (the n-th), held back while `hold`
 * is set; eth_unsubscribe is recorded and answered true.
 */
let server: WebSocketServer;
let url: string;
const subscribed: string[] = [];
const unsubscribed: string[] = [];
let hold: Promise<void> | undefined;
/** eth_subscribe params the stand-in refuses (as a node refusing a filter). */
const refuse = new Set<string>();
const connections: WebSocket[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("connection", (ws) => {
    connections.push(ws);
    ws.on("message", async (d) => {
      const { id, method, params } = JSON.parse(d.toString());
      if (method === "eth_subscribe" && refuse.has(JSON.stringify(params))) {
        ws.send(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "no" } }));
      } else if (method === "eth_subscribe") {
        const sub = `0x${(subscribed.length + 1).toString(16)}`;
        subscribed.push(sub);
        await hold;
        ws.send(JSON.stringify({ jsonrpc: "2.0", id, result: sub }));
      } else {
        unsubscribed.push(params[0]);
        ws.send(JSON.stringify({ jsonrpc: "2.0", id, result: true }));
      }
    });
  });
});

afterAll(() => new Promise((r) => server.close(r)));

/** A subscription hub over the stand-in node alone; `close` ends both. */
const hubOverStandIn = () => {
  const pool = new UpstreamPool(parseUpstreams(url), {
    timeoutMs: 5000,
    retries: 0,
    healthIntervalMs: 60_000,
    maxLagBlocks: 5,
    balance: "priority",
  });
  const hub = new SubscriptionHub(pool, 5000);
  return {
    hub,
    close: () => {
      hub.close();
      pool.close();
    },
  };
};

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
};

describe("subscriptions over the upstream WebSocket", () => {
  it("a client that leaves while its subscription is being made again leaves nothing at the node", async () => {
    const { hub, close } = hubOverStandIn();
    const sink = { send: () => {} };
    try {
      const r = await hub.subscribe(sink, '["newHeads"]');
      if (!("id" in r)) throw new Error(r.error);
      let release = () => {};
      hold = new Promise((resolve) => {
        release = resolve;
      });
      connections.at(-1)!.terminate(); // the upstream connection drops: made again on a new one
      await until(() => subscribed.length === 2);
      expect(hub.unsubscribe(sink, r.id)).toBe(true);
      release();
      hold = undefined;
      await until(() => unsubscribed.includes("0x2"));
      expect(hub.stats()).toEqual({ clients: 0, node: 0 });
    } finally {
      close();
    }
  });

  it("one connection holds at most 100 subscriptions; an unsubscribe makes room; others are unaffected", async () => {
    const { hub, close } = hubOverStandIn();
    const [greedy, other] = [{ send: () => {} }, { send: () => {} }];
    const logs = (i: number) => `["logs",{"address":"0x${i.toString(16).padStart(40, "0")}"}]`;
    try {
      // all at once: those still being made count too
      const asked = await Promise.all(
        Array.from({ length: MAX_PER_CLIENT + 5 }, (_, i) => hub.subscribe(greedy, logs(i))),
      );
      const ids = asked.flatMap((r) => ("id" in r ? [r.id] : []));
      expect(ids).toHaveLength(MAX_PER_CLIENT);
      expect(
        asked.filter((r) => "error" in r).map((r) => JSON.parse((r as { error: string }).error)),
      ).toEqual(
        Array(5).fill({
          code: -32005,
          message: "at most 100 subscriptions per connection: eth_unsubscribe some first",
        }),
      );
      expect("id" in (await hub.subscribe(other, logs(1)))).toBe(true);
      expect(hub.unsubscribe(greedy, ids[0]!)).toBe(true);
      expect("id" in (await hub.subscribe(greedy, logs(999)))).toBe(true);
    } finally {
      close();
    }
  });

  it("after a drop, one subscription the node now refuses does not undo the others: they are made, it is asked again", async () => {
    const { hub, close } = hubOverStandIn();
    const sink = { send: () => {} };
    const [heads, picky] = [
      '["newHeads"]',
      '["logs",{"address":"0x00000000000000000000000000000000000000ab"}]',
    ];
    try {
      for (const p of [heads, picky]) expect("id" in (await hub.subscribe(sink, p))).toBe(true);
      refuse.add(picky);
      const before = subscribed.length;
      const drops = connections.length;
      connections.at(-1)!.terminate();
      await until(() => subscribed.length > before); // newHeads made again
      await new Promise((r) => setTimeout(r, 1500)); // the refused one asked again meanwhile
      expect(connections.length).toBe(drops + 1); // one new link, never closed for the refusal
      refuse.delete(picky);
      await until(() => subscribed.length >= before + 2); // made once the node takes it
      expect(connections.length).toBe(drops + 1);
    } finally {
      refuse.clear();
      close();
    }
  });
});
