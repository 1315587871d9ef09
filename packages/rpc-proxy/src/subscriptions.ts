import { randomBytes } from "node:crypto";
import { ERR, errorObject } from "./jsonrpc.ts";
import { rpcMetrics } from "./metrics.ts";
import type { UpstreamPool } from "./pool.ts";
import { WsLink } from "./ws-link.ts";

/** Where a client's notifications go. */
export interface SubscriberSink {
  send(text: string): void;
}

/** One subscription on the node, shared by every client subscription with the same params. */
interface Shared {
  readonly key: string;
  readonly paramsRaw: string;
  nodeId: string | undefined;
  ready: Promise<{ error?: string }>;
  /** Client subscription id → where its notifications go. */
  readonly members: Map<string, SubscriberSink>;
}

export const SUBSCRIPTION_NAMES: ReadonlySet<string> = new Set([
  "newHeads",
  "logs",
  "newPendingTransactions",
  "syncing",
]);

const newId = () => `0x${randomBytes(16).toString("hex")}`;

/**
 * eth_subscribe relayed to one upstream WebSocket: clients with the same subscription share one
 * subscription on the node; each client gets its own id (random, never the node's), and its
 * notifications carry that id. When the connection drops, every live subscription is made again
 * (on the next upstream that answers), under the same client ids. A client's subscriptions end
 * with its connection, and a node subscription ends with its last client.
 */
export class SubscriptionHub {
  private link: WsLink | undefined;
  private connecting: Promise<WsLink> | undefined;
  private readonly shared = new Map<string, Shared>();
  private readonly byNode = new Map<string, Shared>();
  private readonly bySink = new Map<SubscriberSink, Map<string, Shared>>();
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** How often the upstream WebSocket was lost (every client subscription was then made again). */
  upstreamDrops = 0;

  constructor(
    private readonly pool: UpstreamPool,
    private readonly timeoutMs: number,
  ) {}

  /** Live client subscriptions and node subscriptions (for tests and metrics). */
  stats(): { clients: number; node: number } {
    let clients = 0;
    for (const s of this.shared.values()) clients += s.members.size;
    return { clients, node: this.shared.size };
  }

  private connect(): Promise<WsLink> {
    if (this.link && !this.link.closed) return Promise.resolve(this.link);
    this.connecting ??= (async () => {
      const reasons: string[] = [];
      for (const u of this.pool.candidates("ws")) {
        const link: WsLink = new WsLink(
          u.spec.ws!,
          {
            notification: (id, raw) => this.deliver(link, id, raw),
            close: () => this.lost(link),
          },
          this.timeoutMs,
        );
        try {
          await link.opened;
          this.link = link;
          this.retryMs = 250;
          return link;
        } catch (e) {
          reasons.push(`${u.name}: ${(e as Error).message}`);
        }
      }
      throw new Error(
        reasons.length === 0
          ? "no upstream node has a WebSocket URL (RPC_UPSTREAMS)"
          : `no upstream WebSocket answered (${reasons.join("; ")})`,
      );
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(s: Shared): Promise<{ error?: string }> {
    try {
      const link = await this.connect();
      const a = await link.request("eth_subscribe", s.paramsRaw);
      if (a.error || !a.result) return { error: a.error ?? errorObject(ERR.INTERNAL, "no answer") };
      s.nodeId = JSON.parse(a.result) as string;
      this.byNode.set(s.nodeId, s);
      return {};
    } catch (e) {
      return { error: errorObject(ERR.UNAVAILABLE, (e as Error).message) };
    }
  }

  /** Subscribes `sink` (params: the client's raw JSON array, normalised). */
  async subscribe(
    sink: SubscriberSink,
    paramsRaw: string,
  ): Promise<{ id: string } | { error: string }> {
    let s = this.shared.get(paramsRaw);
    if (!s) {
      const fresh: Shared = {
        key: paramsRaw,
        paramsRaw,
        nodeId: undefined,
        ready: Promise.resolve({}),
        members: new Map(),
      };
      fresh.ready = this.open(fresh);
      this.shared.set(paramsRaw, fresh);
      s = fresh;
    }
    const r = await s.ready;
    if (r.error) {
      if (s.members.size === 0 && this.shared.get(s.key) === s) this.shared.delete(s.key);
      return { error: r.error };
    }
    if (this.shared.get(s.key) !== s) return this.subscribe(sink, paramsRaw); // ended meanwhile
    const id = newId();
    s.members.set(id, sink);
    const mine = this.bySink.get(sink) ?? new Map<string, Shared>();
    mine.set(id, s);
    this.bySink.set(sink, mine);
    rpcMetrics.subscriptions++;
    return { id };
  }

  /** Ends one of `sink`'s subscriptions; false if it has no subscription with that id. */
  unsubscribe(sink: SubscriberSink, id: string): boolean {
    const mine = this.bySink.get(sink);
    const s = mine?.get(id);
    if (!mine || !s) return false;
    mine.delete(id);
    if (mine.size === 0) this.bySink.delete(sink);
    s.members.delete(id);
    rpcMetrics.subscriptions--;
    if (s.members.size === 0 && this.shared.get(s.key) === s) {
      this.shared.delete(s.key);
      if (s.nodeId) {
        this.byNode.delete(s.nodeId);
        this.link?.request("eth_unsubscribe", JSON.stringify([s.nodeId])).catch(() => {});
      }
    }
    return true;
  }

  /** Ends every subscription of a client that left. */
  drop(sink: SubscriberSink): void {
    for (const id of [...(this.bySink.get(sink)?.keys() ?? [])]) this.unsubscribe(sink, id);
  }

  private deliver(link: WsLink, nodeId: string, resultRaw: string) {
    if (link !== this.link) return;
    const s = this.byNode.get(nodeId);
    if (!s) return;
    for (const [id, sink] of s.members)
      sink.send(
        `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${resultRaw}}}`,
      );
  }

  /** The upstream connection dropped: subscribe again, with backoff, wherever a node answers. */
  private lost(link: WsLink) {
    if (link !== this.link) return;
    this.upstreamDrops++;
    this.link = undefined;
    this.byNode.clear();
    for (const s of this.shared.values()) s.nodeId = undefined;
    this.resubscribe();
  }

  private resubscribe() {
    if (this.closed || this.shared.size === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = undefined;
      const all = [...this.shared.values()].filter((s) => s.nodeId === undefined);
      for (const s of all) {
        s.ready = this.open(s);
        const r = await s.ready;
        if (r.error) {
          this.retryMs = Math.min(this.retryMs * 2, 5000);
          this.lostRetry();
          return;
        }
      }
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private lostRetry() {
    this.link?.close();
    this.link = undefined;
    this.byNode.clear();
    for (const s of this.shared.values()) s.nodeId = undefined;
    this.resubscribe();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.link?.close();
  }
}
