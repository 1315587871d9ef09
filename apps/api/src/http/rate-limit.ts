/**
 * Token buckets per client (IP or API key): `perMinute` requests per minute, refilled continuously,
 * bursts up to the same number. In memory, per API instance: with N instances behind a balancer a
 * client gets up to N times the limit (documented).
 *
 * At most `maxClients` buckets are kept. Past that, buckets that have refilled (the same as no
 * bucket) go first, then the least recently seen: many new clients never reset the limit of the
 * active ones.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number; limit: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly keys: ReadonlyMap<string, number>,
    private readonly maxClients = 100_000,
  ) {}

  /**
   * Takes `cost` requests' worth (a JSON-RPC batch costs one per message). A cost above the
   * client's whole limit can never be met, however long it waits: that is `tooLarge`, and nothing
   * is taken.
   */
  take(
    client: string,
    isKey: boolean,
    now = Date.now(),
    cost = 1,
  ): { ok: boolean; limit: number; remaining: number; retryAfterS: number; tooLarge?: true } {
    const limit = isKey ? (this.keys.get(client) ?? this.perMinute) : this.perMinute;
    const b = this.buckets.get(client) ?? { tokens: limit, at: now, limit };
    b.tokens = refilled(b, now);
    b.at = now;
    b.limit = limit;
    // Map order is insertion order: re-inserting keeps the least recently seen first.
    this.buckets.delete(client);
    if (this.buckets.size >= this.maxClients) this.evict(now);
    this.buckets.set(client, b);
    if (cost > 1 && cost > limit)
      return { ok: false, limit, remaining: Math.floor(b.tokens), retryAfterS: 0, tooLarge: true };
    if (b.tokens < cost)
      return {
        ok: false,
        limit,
        remaining: Math.floor(b.tokens),
        retryAfterS: Math.ceil(((cost - b.tokens) * 60) / limit),
      };
    b.tokens -= cost;
    return { ok: true, limit, remaining: Math.floor(b.tokens), retryAfterS: 0 };
  }

  /** Clients tracked now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Down to 90% of maxClients: refilled buckets first, then the least recently seen. */
  private evict(now: number): void {
    const target = Math.floor(this.maxClients * 0.9);
    for (const [client, b] of this.buckets)
      if (refilled(b, now) >= b.limit) this.buckets.delete(client);
    for (const client of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(client);
    }
  }
}

const refilled = (b: { tokens: number; at: number; limit: number }, now: number) =>
  Math.min(b.limit, b.tokens + ((now - b.at) / 60_000) * b.limit);
