/**
 * Token buckets per client (IP or API key): `perMinute` requests per minute, refilled continuously,
 * bursts up to the same number. In memory, per API instance: with N instances behind a balancer a
 * client gets up to N times the limit (documented).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly keys: ReadonlyMap<string, number>,
  ) {}

  /** Takes `cost` requests' worth (a JSON-RPC batch costs one per message). */
  take(
    client: string,
    isKey: boolean,
    now = Date.now(),
    cost = 1,
  ): { ok: boolean; limit: number; remaining: number; retryAfterS: number } {
    const limit = isKey ? (this.keys.get(client) ?? this.perMinute) : this.perMinute;
    const b = this.buckets.get(client) ?? { tokens: limit, at: now };
    b.tokens = Math.min(limit, b.tokens + ((now - b.at) / 60_000) * limit);
    b.at = now;
    if (this.buckets.size > 100_000) this.buckets.clear();
    this.buckets.set(client, b);
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
}
