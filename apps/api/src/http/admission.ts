import { randomUUID } from "node:crypto";
import { CORS, EXPOSED_HEADERS } from "./cors.ts";
import { credential } from "./credential.ts";
import { RateLimiter } from "./rate-limit.ts";

/** What a request's credentials and rate limit allow: headers to send, and a refusal or none. */
export interface Admission {
  readonly headers: Record<string, string>;
  readonly refused?: { readonly status: 401 | 429; readonly error: string };
}

/** A request's id: the client's own (`X-Request-Id`, up to 64 characters), or a new one. */
export const requestIdOf = (given: string | undefined) => (given || randomUUID()).slice(0, 64);

/** Headers of every answer: its request id and CORS. */
export const everyAnswer = (id: string) => ({
  "x-request-id": id,
  ...CORS,
  "access-control-expose-headers": EXPOSED_HEADERS,
});

/**
 * API key and rate limit of a request (REST, or a stream handshake: the same budget), by its
 * Authorization header and client address: the headers to send, and the refusal when it goes no
 * further.
 */
export const makeAdmission = (rateLimitPerMinute: number, apiKeys: ReadonlyMap<string, number>) => {
  const limiter = new RateLimiter(rateLimitPerMinute, apiKeys);
  return (authorization: string, ip: string): Admission => {
    const given = authorization ? credential(authorization) : undefined;
    const key = given !== undefined && apiKeys.has(given) ? given : undefined;
    // A key that is not one is refused, and counted against its client's address: guessing
    // keys costs the same budget as anonymous requests.
    const verdict = limiter.take(key ?? `ip:${ip}`, key !== undefined);
    const headers: Record<string, string> = {
      "x-ratelimit-limit": String(verdict.limit),
      "x-ratelimit-remaining": String(verdict.remaining),
    };
    if (authorization && key === undefined && verdict.ok)
      return {
        headers: { ...headers, "www-authenticate": 'Bearer realm="api"' },
        refused: {
          status: 401,
          error: "unknown API key (Authorization: Bearer <key>, or Basic with the key as password)",
        },
      };
    if (verdict.ok) return { headers };
    headers["retry-after"] = String(verdict.retryAfterS);
    return {
      headers,
      refused: {
        status: 429,
        error: `rate limit of ${verdict.limit} requests per minute reached; retry in ${verdict.retryAfterS} s`,
      },
    };
  };
};
