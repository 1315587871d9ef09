import { isRetryable } from "@explorer/service/errors";
import { HttpTarget, isUpstreamError, type UpstreamError, UpstreamFailure } from "./http-post.ts";
import { rpcMetrics } from "./metrics.ts";

/** One upstream node: its HTTP URL (calls, filters) and WebSocket URL (subscriptions). */
export interface UpstreamSpec {
  readonly http?: string;
  readonly ws?: string;
}

/**
 * RPC_UPSTREAMS: nodes separated by commas, each `http(s)://…` and/or `ws(s)://…` joined by `|`,
 * e.g. `http://127.0.0.1:8545|ws://127.0.0.1:8546,http://127.0.0.1:8645|ws://127.0.0.1:8646`.
 * An empty value means no node (the index answers what it can).
 */
export const parseUpstreams = (value: string): UpstreamSpec[] =>
  (value.trim().toLowerCase() === "none" ? "" : value)
    .split(",")
    .map((node) => node.trim())
    .filter(Boolean)
    .map((node) => {
      const spec: { http?: string; ws?: string } = {};
      for (const raw of node.split("|").map((u) => u.trim())) {
        let url: URL;
        try {
          url = new URL(raw);
        } catch {
          throw new Error(`RPC_UPSTREAMS: "${raw}" is not a URL`);
        }
        const kind = /^https?:$/.test(url.protocol)
          ? "http"
          : /^wss?:$/.test(url.protocol)
            ? "ws"
            : undefined;
        if (!kind) throw new Error(`RPC_UPSTREAMS: "${raw}" must be http(s):// or ws(s)://`);
        if (spec[kind]) throw new Error(`RPC_UPSTREAMS: node "${node}" has two ${kind} URLs`);
        spec[kind] = raw;
      }
      return spec;
    });

export interface PoolOptions {
  /** Time an upstream has to answer one request. */
  readonly timeoutMs: number;
  /** Further upstreams tried after a failure (safe reads; any call the node never received). */
  readonly retries: number;
  readonly healthIntervalMs: number;
  /** An upstream this many blocks behind the best one is used only when no other is up. */
  readonly maxLagBlocks: number;
  /** `priority`: the first healthy upstream in the list; `round-robin`: spread over the healthy ones. */
  readonly balance: "priority" | "round-robin";
}

export class Upstream {
  /** Scheme and host of its URL. */
  readonly name: string;
  readonly http?: HttpTarget;
  /** Up until a health check or a request says otherwise. */
  up = true;
  head: number | undefined;
  lastError: string | undefined;
  /** Calls sent (health checks not counted), and those that got no answer. */
  requests = 0;
  failures = 0;

  constructor(
    readonly index: number,
    readonly spec: UpstreamSpec,
  ) {
    // what logs and metrics show: no credentials, path or query (they may carry API keys)
    const url = new URL((spec.http ?? spec.ws)!);
    this.name = `${url.protocol}//${url.host}`;
    if (spec.http) this.http = new HttpTarget(spec.http);
    rpcMetrics.watchUpstream(this);
  }

  markDown(reason: string): void {
    this.up = false;
    this.lastError = reason;
  }

  markUp(head?: number): void {
    this.up = true;
    if (head !== undefined) this.head = head;
  }
}

const BLOCK_NUMBER = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';

/**
 * The upstream nodes: health checks (eth_blockNumber every healthIntervalMs: answers and head),
 * the order in which to try them, retries of safe reads on the next one, failover.
 */
export class UpstreamPool {
  readonly upstreams: readonly Upstream[];
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;

  constructor(
    specs: readonly UpstreamSpec[],
    readonly options: PoolOptions,
  ) {
    this.upstreams = specs.map((s, i) => new Upstream(i, s));
  }

  get size(): number {
    return this.upstreams.length;
  }

  /** Starts the health checks (the first one now). */
  start(): Promise<void> {
    if (this.timer || this.upstreams.length === 0) return Promise.resolve();
    this.timer = setInterval(() => void this.checkAll(), this.options.healthIntervalMs);
    this.timer.unref();
    return this.checkAll();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const u of this.upstreams) u.http?.close();
  }

  async checkAll(): Promise<void> {
    await Promise.all(
      this.upstreams
        .filter((u) => u.http)
        .map(async (u) => {
          try {
            const text = await u.http!.post(BLOCK_NUMBER, Math.min(this.options.timeoutMs, 5000));
            const head = Number.parseInt((JSON.parse(text) as { result: string }).result, 16);
            if (!Number.isSafeInteger(head)) throw new Error(`eth_blockNumber answered ${text}`);
            u.markUp(head);
          } catch (e) {
            u.markDown((e as Error).message);
          }
        }),
    );
  }

  /**
   * Upstreams with an HTTP (or WebSocket) URL, in the order to try: up and caught up, then up but
   * lagging, then down.
   */
  candidates(transport: "http" | "ws" = "http"): Upstream[] {
    const withHttp = this.upstreams.filter((u) => u.spec[transport]);
    const up = withHttp.filter((u) => u.up);
    const best = Math.max(...up.map((u) => u.head ?? 0));
    const fresh = up.filter(
      (u) => u.head === undefined || best - u.head <= this.options.maxLagBlocks,
    );
    if (this.options.balance === "round-robin" && fresh.length > 1) {
      const k = this.turn++ % fresh.length;
      fresh.push(...fresh.splice(0, k));
    }
    return [...fresh, ...up.filter((u) => !fresh.includes(u)), ...withHttp.filter((u) => !u.up)];
  }

  /**
   * POSTs a JSON-RPC body and resolves with the node's answer. On a failure the next candidate is
   * tried (at most `retries` more) when the call is safe or never reached the node. `pinned`: only
   * that upstream (filters).
   */
  async post(
    body: string,
    opts: { readonly safe: boolean; readonly pinned?: Upstream },
  ): Promise<{ text: string; upstream: Upstream }> {
    const list = opts.pinned ? [opts.pinned] : this.candidates();
    if (list.length === 0)
      throw new UpstreamFailure("no upstream node is configured", "unreachable", false);
    let last: UpstreamError | undefined;
    for (let i = 0; i < list.length && i <= this.options.retries; i++) {
      const u = list[i]!;
      u.requests++;
      try {
        const text = await u.http!.post(body, this.options.timeoutMs);
        if (!u.up) u.markUp();
        return { text, upstream: u };
      } catch (e) {
        if (!isUpstreamError(e)) throw e;
        last = e;
        u.failures++;
        // A request the node refused as such (too large, say) would be refused by the others too;
        // the node itself is well.
        if (!isRetryable(e)) break;
        if (e.kind !== "timeout") u.markDown(e.message);
        if (e.sent && !opts.safe) break;
      }
    }
    throw last!;
  }
}
