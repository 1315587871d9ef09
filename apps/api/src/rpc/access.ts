import type { IncomingMessage } from "node:http";
import { ERR, messageCount, type Parsed, refuseAll } from "@explorer/rpc-proxy";
import { clientIp } from "../http/client-ip.ts";
import { credential } from "../http/credential.ts";
import { RateLimiter } from "../http/rate-limit.ts";
import { sameSecret } from "../http/secret.ts";
import type { RpcSettings } from "./config.ts";

/** Who sent a request, from its bearer token and address. */
export type Who =
  | {
      readonly ok: true;
      readonly privileged: boolean;
      readonly client: string;
      readonly isKey: boolean;
    }
  | { readonly ok: false; readonly client: string };

export interface Refusal {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Credentials and rate limits of the JSON-RPC endpoint. `Authorization: Bearer <token>` (or Basic
 * with the token as password: http/credential.ts) carries
 * either the operator's private token (private methods allowed, no rate limit) or an API key
 * (its own rate limit, shared keys with the REST API); without it the caller's IP is limited.
 */
export class RpcAccess {
  private readonly limiter: RateLimiter;

  constructor(private readonly settings: RpcSettings) {
    this.limiter = new RateLimiter(settings.rateLimitPerMinute, settings.apiKeys);
  }

  identify(req: IncomingMessage): Who {
    const auth = req.headers.authorization;
    const ip = clientIp(req, this.settings.trustedProxies ?? 0) || "unknown";
    if (!auth) return { ok: true, privileged: false, client: `ip:${ip}`, isKey: false };
    const token = credential(auth);
    if (token && sameSecret(token, this.settings.privateToken))
      return { ok: true, privileged: true, client: "operator", isKey: true };
    if (token && this.settings.apiKeys.has(token))
      return { ok: true, privileged: false, client: token, isKey: true };
    return { ok: false, client: `ip:${ip}` };
  }

  /**
   * A request whose token is none: charged to its address as anonymous calls are (guessing
   * tokens costs the same budget), then refused, 401, or 429 once that budget is spent.
   */
  refuseUnknown(who: Who & { ok: false }, text: string, parsed: Parsed): Refusal {
    const anonymous = { ok: true, privileged: false, client: who.client, isKey: false } as const;
    return this.admit(anonymous, text, parsed) ?? RpcAccess.unknownToken(text, parsed);
  }

  /** The same for a WebSocket upgrade: false once its address's budget is spent. */
  spendUnknown(who: Who & { ok: false }): boolean {
    return this.limiter.take(who.client, false).ok;
  }

  static unknownToken(text: string, parsed: Parsed): Refusal {
    return {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="json-rpc"' },
      body: `${refuseAll(text, parsed, ERR.UNAUTHORIZED, "unknown token (Authorization: Bearer <operator token or API key>, or Basic with it as password)")}\n`,
    };
  }

  /**
   * Takes one request per message; the refusal (HTTP 429 and a JSON-RPC error) when over the limit.
   * A batch over the batch limit costs one: the proxy refuses it as a whole ("batch too large"),
   * whatever the client's bucket holds. A batch with more messages than the client's limit per
   * minute could never pass: it is refused without Retry-After, saying how large a batch may be.
   */
  admit(who: Who & { ok: true }, text: string, parsed: Parsed): Refusal | undefined {
    if (who.privileged) return undefined;
    const n = messageCount(parsed);
    const v = this.limiter.take(
      who.client,
      who.isKey,
      Date.now(),
      n > this.settings.batchLimit ? 1 : n,
    );
    if (v.ok) return undefined;
    const message = v.tooLarge
      ? `a batch of ${n} calls is more than the rate limit of ${v.limit} calls per minute allows; send batches of at most ${v.limit} calls`
      : `rate limit of ${v.limit} calls per minute reached; retry in ${v.retryAfterS} s`;
    return {
      status: 429,
      headers: {
        ...(v.tooLarge ? {} : { "retry-after": String(v.retryAfterS) }),
        "x-ratelimit-limit": String(v.limit),
        "x-ratelimit-remaining": String(v.remaining),
      },
      body: `${refuseAll(text, parsed, ERR.LIMIT, message)}\n`,
    };
  }
}
