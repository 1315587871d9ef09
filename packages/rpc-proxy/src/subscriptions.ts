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
  ready: Promise<{ error?: string; refused?: boolean }>;
  /** Client subscription id → where its notifications go. */
  readonly members: Map<string, SubscriberSink>;
  /** newPendingTransactions: the next poll of the node's filter. */
  poll?: NodeJS.Timeout;
}

export const SUBSCRIPTION_NAMES: ReadonlySet<string> = new Set([
  "newHeads",
  "logs",
  "newPendingTransactions",
  "syncing",
]);

/** Subscriptions one client connection may hold at once. */
export const MAX_PER_CLIENT = 100;

/**
 * `["newPendingTransactions"]` is served from a pending-transaction filter on the node, polled
 * every PENDING_POLL_MS, not from a node subscription: cosmos/evm up to v0.3 leaves a goroutine
 * spinning a CPU core for every newPendingTransactions subscription that ends (rpc/websockets.go
 * keeps reading the closed event channel; fixed in v0.4, see zeta-chain/node#4641), while its
 * filters end cleanly. The client sees the same eth_subscription notifications (tx hashes).
 */
const PENDING_TXS = '["newPendingTransactions"]';
export const PENDING_POLL_MS = 250;

const newId = () => `0x${randomBytes(16).toString("hex")}`;

/**
 * eth_subscribe relayed to one upstream WebSocket: clients with the same subscription share one
 * subscription on the node; each client gets its own id (random, never the node's), and its
 * notifications carry that id. When the connection drops, every live subscription is made again
 * (on the next upstream that answers), under the same client ids. A client's subscriptions end
 * with its connection, and a node subscription ends with its last client.
 * newPendingTransactions is the exception: see PENDING_TXS.
 */
export class SubscriptionHub {
  private link: WsLink | undefined;
  private connecting: Promise<WsLink> | undefined;
  private readonly shared = new Map<string, Shared>();
  private readonly byNode = new Map<string, Shared>();
  private readonly bySink = new Map<SubscriberSink, Map<string, Shared>>();
  /** Subscriptions each client is waiting for (counted against its limit). */
  private readonly opening = new Map<SubscriberSink, number>();
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  /** A resubscribe round is running; `again`: another was asked for meanwhile. */
  private resubscribing = false;
  private again = false;
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

  /**
   * Makes `s` at the node. `refused`: the node answered, refusing it (the link is well); otherwise
   * an error means the link failed.
   */
  private async open(s: Shared): Promise<{ error?: string; refused?: boolean }> {
    try {
      const link = await this.connect();
      const pending = s.paramsRaw === PENDING_TXS;
      const a = pending
        ? await link.request("eth_newPendingTransactionFilter", "[]")
        : await link.request("eth_subscribe", s.paramsRaw);
      if (a.error || !a.result) {
        const code = a.error ? (JSON.parse(a.error) as { code?: number }).code : undefined;
        const linkFailed = link.closed || code === ERR.UNAVAILABLE || code === ERR.TIMEOUT;
        return {
          error: a.error ?? errorObject(ERR.INTERNAL, "no answer"),
          refused: !linkFailed,
        };
      }
      const nodeId = JSON.parse(a.result) as string;
      // cosmos/evm answers a filter it could not make with the reason in place of the id
      if (!/^0x[0-9a-f]+$/i.test(nodeId))
        return { error: errorObject(ERR.INTERNAL, nodeId), refused: true };
      if (this.shared.get(s.key) !== s) {
        // Every client left while it was being made: end it at the node, keep nothing.
        link.request(endMethod(s), JSON.stringify([nodeId])).catch(() => {});
        return {};
      }
      s.nodeId = nodeId;
      this.byNode.set(nodeId, s);
      if (pending) this.pollPending(link, s, nodeId);
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
    // Each distinct filter is a subscription at the node: one connection may not hold without end.
    const held = (this.bySink.get(sink)?.size ?? 0) + (this.opening.get(sink) ?? 0);
    if (held >= MAX_PER_CLIENT)
      return {
        error: errorObject(
          ERR.LIMIT,
          `at most ${MAX_PER_CLIENT} subscriptions per connection: eth_unsubscribe some first`,
        ),
      };
    this.opening.set(sink, (this.opening.get(sink) ?? 0) + 1);
    try {
      return await this.join(sink, paramsRaw);
    } finally {
      const n = (this.opening.get(sink) ?? 1) - 1;
      if (n > 0) this.opening.set(sink, n);
      else this.opening.delete(sink);
    }
  }

  private async join(
    sink: SubscriberSink,
    paramsRaw: string,
  ): Promise<{ id: string } | { error: string }> {
    // Any newPendingTransactions (cosmos/evm ignores further params) is the polled filter.
    if (paramsRaw.startsWith('["newPendingTransactions"')) paramsRaw = PENDING_TXS;
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
    if (this.shared.get(s.key) !== s) return this.join(sink, paramsRaw); // ended meanwhile
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
      clearTimeout(s.poll);
      if (s.nodeId) {
        this.byNode.delete(s.nodeId);
        this.link?.request(endMethod(s), JSON.stringify([s.nodeId])).catch(() => {});
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

  /** Polls the node's pending-transaction filter `nodeId` while it is `s`'s, on `link`. */
  private pollPending(link: WsLink, s: Shared, nodeId: string) {
    const current = () => link === this.link && s.nodeId === nodeId && this.shared.get(s.key) === s;
    const tick = async () => {
      if (!current()) return;
      const a = await link.request("eth_getFilterChanges", JSON.stringify([nodeId]));
      if (!current()) return;
      if (a.result) {
        for (const hash of JSON.parse(a.result) as unknown[])
          this.deliver(link, nodeId, JSON.stringify(hash));
      } else {
        // The filter is gone (the node restarted, or it expired while the link was slow): make
        // it again, as after a lost connection.
        this.byNode.delete(nodeId);
        s.nodeId = undefined;
        this.resubscribe();
        return;
      }
      s.poll = setTimeout(tick, PENDING_POLL_MS);
      s.poll.unref();
    };
    s.poll = setTimeout(tick, PENDING_POLL_MS);
    s.poll.unref();
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
    // One round at a time: a second one would make the same subscription twice at the node.
    if (this.resubscribing) {
      this.again = true;
      return;
    }
    this.retryTimer = setTimeout(async () => {
      this.retryTimer = undefined;
      this.resubscribing = true;
      let failed = false;
      let refused = false;
      try {
        for (const s of [...this.shared.values()]) {
          // Made meanwhile, or every client left it.
          if (s.nodeId !== undefined || this.shared.get(s.key) !== s) continue;
          s.ready = this.open(s);
          const r = await s.ready;
          // One the node refuses now is asked again later; the others go on over this link.
          if (r.error && r.refused) refused = true;
          else if (r.error) {
            failed = true;
            break;
          }
        }
      } finally {
        this.resubscribing = false;
      }
      if (failed) {
        this.again = false;
        this.retryMs = Math.min(this.retryMs * 2, 5000);
        this.lostRetry();
      } else if (refused) {
        this.again = false;
        this.retryMs = Math.min(this.retryMs * 2, 5000);
        this.resubscribe();
      } else if (this.again) {
        this.again = false;
        this.resubscribe();
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
    for (const s of this.shared.values()) clearTimeout(s.poll);
    this.link?.close();
  }
}

/** How a subscription is ended at the node. */
const endMethod = (s: { readonly paramsRaw: string }) =>
  s.paramsRaw === PENDING_TXS ? "eth_uninstallFilter" : "eth_unsubscribe";
