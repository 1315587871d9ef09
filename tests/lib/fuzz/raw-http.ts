import { Agent, request } from "node:http";

export interface RawRequest {
  readonly method: string;
  /**
   * The request target exactly as sent: no normalisation, no re-encoding. Characters U+0080–U+00FF
   * go out as single bytes (so "\xff" sends an invalid UTF-8 byte).
   */
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** A body, sent with content-length; or chunks sent with transfer-encoding: chunked. */
  readonly body?: string | Buffer | { readonly chunks: readonly Buffer[] };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * One HTTP/1.1 request to a loopback server through node:http, which sends the path as given (an
 * invalid percent-escape or a raw byte reaches the server as such; fetch would normalise them).
 * A response that comes while the body is still being written (413) is returned, the rest of the
 * body dropped.
 */
export const rawRequest = (port: number, r: RawRequest): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    let answered = false;
    const chunked = typeof r.body === "object" && !Buffer.isBuffer(r.body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: r.method,
        path: r.path,
        agent,
        headers: {
          ...(r.body !== undefined && !chunked
            ? { "content-length": String(Buffer.byteLength(r.body as string | Buffer)) }
            : {}),
          ...r.headers,
        },
      },
      (res) => {
        answered = true;
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(parts).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    if (chunked) {
      const chunks = (r.body as { chunks: readonly Buffer[] }).chunks;
      (async () => {
        for (const c of chunks) {
          if (answered || req.destroyed) return;
          if (!req.write(c)) await new Promise((ok) => req.once("drain", ok));
        }
        req.end();
      })().catch(() => {});
    } else req.end(r.body);
  });

/** Closes the kept-alive sockets (at the end of a test file). */
export const closeRawClients = () => agent.destroy();
