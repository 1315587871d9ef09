import WebSocket from "ws";

/** One WebSocket frame as sent: text, a text frame whose bytes are not UTF-8, or binary. */
export type WsFrame =
  | { readonly kind: "text"; readonly data: string }
  | { readonly kind: "text-bytes"; readonly data: Buffer }
  | { readonly kind: "binary"; readonly data: Buffer };

export const frameBytes = (f: WsFrame): Buffer =>
  typeof f.data === "string" ? Buffer.from(f.data, "utf8") : f.data;

const utf8 = new TextDecoder("utf-8", { fatal: true });
export const isUtf8 = (b: Buffer): boolean => {
  try {
    utf8.decode(b);
    return true;
  } catch {
    return false;
  }
};

/**
 * A raw WebSocket client: sends frames exactly as given (ws does not check what it sends, so a
 * text frame can carry bytes that are not UTF-8), keeps every message received as text and how
 * the connection closed.
 */
export class RawWs {
  readonly messages: string[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (d) => {
      this.messages.push(d.toString());
      this.wake();
    });
    ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on("error", () => {}); // a refused or reset connection shows as `closed`
  }

  private wake() {
    for (const w of this.waiters) w();
  }

  /** Opens a connection; rejects with the HTTP status when the upgrade is refused. */
  static open(url: string, headers: Record<string, string> = {}): Promise<RawWs> {
    const ws = new WebSocket(url, { headers, maxPayload: 64 * 1024 * 1024 });
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(new RawWs(ws)));
      ws.once("unexpected-response", (_req, res) =>
        reject(
          Object.assign(new Error(`upgrade refused: ${res.statusCode}`), {
            status: res.statusCode,
          }),
        ),
      );
      ws.once("error", reject);
    });
  }

  send(f: WsFrame): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(f.data, { binary: f.kind === "binary" });
  }

  /** Resolves once `done()` holds (checked on every message and on close), or after `ms`. */
  until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        finish(true);
      };
      const timer = setTimeout(() => finish(false), ms);
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      this.waiters.add(check);
    });
  }

  /** Closes politely (close frame, waits for the server's) or drops the TCP connection. */
  async end(how: "close" | "terminate"): Promise<void> {
    if (this.closed) return;
    if (how === "terminate") this.ws.terminate();
    else this.ws.close(1000);
    await this.until(() => this.closed !== undefined, 5000);
  }
}
