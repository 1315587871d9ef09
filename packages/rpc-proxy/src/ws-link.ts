import WebSocket from "ws";
import { ERR, errorObject } from "./jsonrpc.ts";
import { scanMembers } from "./raw-json.ts";

/**
 * The largest message a node reads on its WebSocket (cosmos/evm v0.3: 1 MiB, measured; a longer
 * one closes the connection with 1009). The link carries every client's subscriptions, so
 * a request over it is refused here instead of being sent.
 */
export const UPSTREAM_WS_MAX_BYTES = 1024 * 1024;

const RESPONSE_KEYS = new Set(["id", "result", "error", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["subscription", "result"]);

export interface LinkAnswer {
  readonly result?: string;
  readonly error?: string;
}

/**
 * One WebSocket connection to an upstream node, for subscriptions. Requests go one at a time:
 * cosmos/evm answers a refused eth_subscribe with `id: null`, so an answer is matched to the one
 * request in flight. Notifications are handed over with the node's subscription id and the raw
 * result.
 */
export class WsLink {
  private readonly socket: WebSocket;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting: { id: number; resolve: (a: LinkAnswer) => void } | undefined;
  private nextId = 1;
  readonly opened: Promise<void>;
  closed = false;

  constructor(
    readonly url: string,
    private readonly handlers: {
      readonly notification: (subscription: string, resultRaw: string) => void;
      readonly close: (reason: string) => void;
    },
    private readonly timeoutMs: number,
    /** A ping this often; a link that has not answered the last one by the next is ended. */
    pingMs = 15_000,
  ) {
    this.socket = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 64 * 1024 * 1024 });
    this.opened = new Promise((resolve, reject) => {
      this.socket.once("open", () => resolve());
      this.socket.once("error", (e) => reject(e));
    });
    // A connection whose far end is gone without a word (the node's host lost, a NAT's timeout)
    // never closes by itself: subscriptions would stop in silence. Unanswered pings end it, and
    // the subscriptions are made again over a new one.
    let answered = true;
    this.socket.on("pong", () => {
      answered = true;
    });
    const heartbeat = setInterval(() => {
      if (this.socket.readyState !== WebSocket.OPEN) return;
      if (!answered) {
        this.socket.terminate();
        return;
      }
      answered = false;
      this.socket.ping();
    }, pingMs);
    heartbeat.unref();
    this.opened.catch(() => {});
    this.socket.on("message", (data) => this.onMessage(data.toString()));
    this.socket.on("error", () => {});
    this.socket.once("close", (code, reason) => {
      clearInterval(heartbeat);
      this.closed = true;
      this.waiting?.resolve({
        error: '{"code":-32011,"message":"the upstream connection closed"}',
      });
      this.waiting = undefined;
      handlers.close(`${code} ${reason.toString()}`.trim());
    });
  }

  private onMessage(text: string) {
    const [m] = scanMembers(text, RESPONSE_KEYS);
    if (!m) return;
    if (m.get("method") === '"eth_subscription"') {
      const [p] = scanMembers(m.get("params") ?? "{}", NOTIFICATION_KEYS);
      const sub = p?.get("subscription");
      const result = p?.get("result");
      if (sub && result) this.handlers.notification(JSON.parse(sub) as string, result);
      return;
    }
    const w = this.waiting;
    const id = m.get("id");
    if (!w || (id !== String(w.id) && id !== "null")) return;
    this.waiting = undefined;
    w.resolve({ result: m.get("result"), error: m.get("error") });
  }

  /** Sends one call (params as raw JSON) once the previous one is answered. */
  request(method: string, paramsRaw: string): Promise<LinkAnswer> {
    const text = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${paramsRaw}}`;
    const size = Buffer.byteLength(text(Number.MAX_SAFE_INTEGER)); // any id fits
    if (size > UPSTREAM_WS_MAX_BYTES)
      return Promise.resolve({
        error: errorObject(
          ERR.INVALID_PARAMS,
          `${method} params too large: ${size} bytes, the node reads at most ${UPSTREAM_WS_MAX_BYTES} a message`,
        ),
      });
    const run = async (): Promise<LinkAnswer> => {
      await this.opened;
      if (this.closed)
        return { error: '{"code":-32011,"message":"the upstream connection closed"}' };
      const id = this.nextId++;
      return new Promise<LinkAnswer>((resolve) => {
        const timer = setTimeout(() => {
          if (this.waiting?.id !== id) return;
          this.waiting = undefined;
          resolve({ error: '{"code":-32002,"message":"request timed out"}' });
        }, this.timeoutMs);
        this.waiting = {
          id,
          resolve: (a) => {
            clearTimeout(timer);
            resolve(a);
          },
        };
        this.socket.send(text(id));
      });
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  close(): void {
    this.socket.close();
  }
}
