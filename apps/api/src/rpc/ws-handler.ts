import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { parseBody, type RpcProxy, type SubscriptionHub, WsSession } from "@explorer/rpc-proxy";
import { WebSocketServer } from "ws";
import type { RpcAccess } from "./access.ts";
import type { RpcSettings } from "./config.ts";

/** A client that lets this much go unread is cut off (it would otherwise grow the API's memory). */
const MAX_BUFFERED = 16 * 1024 * 1024;
const PING_MS = 30_000;

/**
 * JSON-RPC over WebSocket at {rpc_ws_url} (upgrades on the HTTP path): credentials at the
 * upgrade (401 refuses it), then each message is rate-limited and answered by a session; pings
 * every 30 s end connections that stopped answering, and with them their subscriptions.
 */
export const wsHandler = (
  proxy: RpcProxy,
  hub: SubscriptionHub,
  access: RpcAccess,
  settings: RpcSettings,
) => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: settings.maxBodyBytes });
  const alive = new WeakSet<object>();
  const pinger = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, PING_MS);
  pinger.unref();

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const who = access.identify(req);
    if (!who.ok) {
      socket.end(
        access.spendUnknown(who)
          ? 'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer realm="json-rpc"\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nunknown token (Authorization: Bearer <operator token or API key>, or Basic with it as password)\n'
          : "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nrate limit reached: a wrong token counts against its address\n",
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      alive.add(ws);
      ws.on("pong", () => alive.add(ws));
      const session = new WsSession(
        proxy,
        hub,
        { privileged: who.privileged, transport: "ws" },
        (text) => {
          if (ws.bufferedAmount > MAX_BUFFERED) ws.close(1008, "too slow: notifications unread");
          else ws.send(text);
        },
      );
      ws.on("message", (data) => {
        const text = data.toString();
        const parsed = parseBody(text);
        const refusal = access.admit(who, text, parsed);
        if (refusal) session.send(refusal.body);
        else void session.message(text, parsed);
      });
      ws.on("close", () => session.close());
      ws.on("error", () => session.close());
    });
  };

  return {
    upgrade,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(pinger);
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
};
