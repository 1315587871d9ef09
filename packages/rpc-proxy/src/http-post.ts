import { Fatal, Retryable } from "@explorer/service/errors";
import { withCredentials } from "@explorer/service/url";
import { Pool } from "undici";

/**
 * Why an upstream gave no answer: another upstream may give one. `sent` tells whether the request
 * may have reached the node (then only safe reads are retried elsewhere).
 */
export class UpstreamFailure extends Retryable {
  constructor(
    message: string,
    readonly kind: "timeout" | "unreachable" | "bad-answer",
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/**
 * The node refused the request itself for its size (413, 414, 431): any node would, and the node
 * is well.
 */
export class UpstreamRefused extends Fatal {
  readonly kind = "refused";
  readonly sent = true;
}

/** Why no upstream answered. */
export type UpstreamError = UpstreamFailure | UpstreamRefused;

export const isUpstreamError = (e: unknown): e is UpstreamError =>
  e instanceof UpstreamFailure || e instanceof UpstreamRefused;

/**
 * Statuses that say the request itself was too large (geth's body limit: 413): any node would
 * refuse it. Other 4xx (401, 403 from a gateway, 408, 429) are the node's own, and fail over.
 */
const REQUEST_TOO_LARGE = new Set([413, 414, 431]);

/** Connection failures: the request never left. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * One upstream's HTTP endpoint: a pool of kept-alive connections (undici, which costs the proxy
 * about a third less CPU per call than node:http's client).
 */
export class HttpTarget {
  private readonly pool: Pool;
  private readonly path: string;
  private readonly headers: Record<string, string>;
  private readonly host: string;

  constructor(url: string, connections = 128) {
    const bare = withCredentials(url);
    const u = new URL(bare.url);
    this.host = u.host;
    this.path = `${u.pathname}${u.search}`;
    this.headers = { "content-type": "application/json", ...bare.headers };
    // Idle connections are dropped after 60 s, before the node (geth: 120 s) drops them mid-reuse.
    this.pool = new Pool(u.origin, { connections, keepAliveTimeout: 60_000 });
  }

  /** POSTs a JSON body and resolves with the body of a 200 answer. */
  async post(body: string, timeoutMs: number): Promise<string> {
    let res: Awaited<ReturnType<Pool["request"]>>;
    try {
      res = await this.pool.request({
        path: this.path,
        method: "POST",
        headers: this.headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (e) {
      throw this.failure(e, timeoutMs);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (e) {
      throw this.failure(e, timeoutMs);
    }
    if (res.statusCode !== 200) {
      const what = `${this.host} answered HTTP ${res.statusCode}: ${text.slice(0, 200)}`;
      throw REQUEST_TOO_LARGE.has(res.statusCode)
        ? new UpstreamRefused(what)
        : new UpstreamFailure(what, "bad-answer", true);
    }
    return text;
  }

  private failure(e: unknown, timeoutMs: number): UpstreamFailure {
    const code = (e as { code?: string }).code ?? "";
    if (TIMEOUTS.has(code))
      return new UpstreamFailure(`${this.host} did not answer in ${timeoutMs} ms`, "timeout", true);
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    const why = NOT_SENT.has(code) ? code : (cause ?? code) || (e as Error).message;
    return new UpstreamFailure(
      `${this.host}: ${why}`,
      "unreachable",
      !NOT_SENT.has(code) && !NOT_SENT.has(cause ?? ""),
    );
  }

  close(): void {
    void this.pool.destroy();
  }
}
