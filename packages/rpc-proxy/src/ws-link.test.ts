import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { UPSTREAM_WS_MAX_BYTES, WsLink } from "./ws-link.ts";

/** A stand-in node: reads at most 1 MiB a message (a longer one closes with 1009, as the node does). */
let server: WebSocketServer;
let url: string;
const received: number[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: "127.0.0.1", maxPayload: UPSTREAM_WS_MAX_BYTES });
  await new Promise((r) => server.once("listening", r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on("connection", (ws) =>
    ws.on("message", (d) => {
      received.push(d.toString().length);
      const { id } = JSON.parse(d.toString());
      ws.send(`{"jsonrpc":"2.0","id":${id},"result":"0x${id.toString(16).padStart(32, "0")}"}`);
    }),
  );
});

afterAll(() => new Promise((r) => server.close(r)));

describe("WsLink", () => {
  it("refuses a request the node would not read, without sending it: the link stays up", async () => {
    const closes: string[] = [];
    const link = new WsLink(
      url,
      { notification: () => {}, close: (why) => closes.push(why) },
      5000,
    );
    await link.opened;
    expect((await link.request("eth_subscribe", '["newHeads"]')).result).toMatch(/^"0x0+1"$/);
    const big = `["logs",{"x":"${"a".repeat(UPSTREAM_WS_MAX_BYTES)}"}]`;
    const refused = await link.request("eth_subscribe", big);
    expect(JSON.parse(refused.error!)).toEqual({
      code: -32602,
      message: expect.stringMatching(
        /^eth_subscribe params too large: \d+ bytes, the node reads at most 1048576 a message$/,
      ),
    });
    const fits = `["logs",{"x":"${"a".repeat(UPSTREAM_WS_MAX_BYTES - 200)}"}]`;
    expect((await link.request("eth_subscribe", fits)).result).toMatch(/^"0x/);
    expect(received.every((n) => n <= UPSTREAM_WS_MAX_BYTES)).toBe(true);
    expect(received).toHaveLength(2);
    expect(link.closed).toBe(false);
    expect(closes).toEqual([]);
    link.close();
  });

  it("a node that stops answering pings (a connection gone quiet) is closed, so subscriptions are made again", async () => {
    const quiet = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((r) => quiet.once("listening", r));
    // The far end reads nothing more: no pong comes back, and no close either.
    quiet.on("connection", (ws) =>
      (ws as unknown as { _socket: { pause(): void } })._socket.pause(),
    );
    const closes: string[] = [];
    const link = new WsLink(
      `ws://127.0.0.1:${(quiet.address() as AddressInfo).port}`,
      { notification: () => {}, close: (why) => closes.push(why) },
      5000,
      50,
    );
    try {
      await link.opened;
      for (let i = 0; i < 100 && closes.length === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(link.closed).toBe(true);
      expect(closes).toHaveLength(1);
    } finally {
      for (const c of quiet.clients) c.terminate();
      await new Promise((r) => quiet.close(r));
    }
  });
});
