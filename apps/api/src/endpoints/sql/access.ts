import type { SqlLimits } from "@explorer/store/sql-sandbox";

/** Who may use the SQL endpoint, and its limits (SQL_* settings, API_KEYS scopes). */
export interface SqlPolicy {
  /** Keys with the `sql` scope (API_KEYS `key:limit:sql`). */
  readonly keys: ReadonlySet<string>;
  /** Without such a key: `on` anyone, `off` no one, `auto` loopback clients of an API on loopback. */
  readonly anonymous: "auto" | "on" | "off";
  /** The API listens on a loopback address only. */
  readonly listensOnLoopback: boolean;
  /** Queries per minute per key (or per address, without one). */
  readonly perMinute: number;
  /** Queries running at once, for every client together. */
  readonly maxConcurrent: number;
  readonly limits: SqlLimits;
}

/** A loopback address: 127.0.0.0/8 (also written as IPv6) or ::1. */
export const isLoopback = (ip: string): boolean =>
  /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(ip) || ip === "::1" || ip === "localhost";

/** Anonymous clients are let in (`auto`: loopback ones, when the API listens on loopback). */
export const anonymousAllowed = (p: SqlPolicy, ip: string): boolean =>
  p.anonymous === "on" || (p.anonymous === "auto" && p.listensOnLoopback && isLoopback(ip));

export type Access =
  | { readonly ok: true; readonly client: string }
  | { readonly ok: false; readonly status: 401 | 403; readonly error: string };

/**
 * A request's right to run SQL: a key with the `sql` scope (its quota is the key's), else an
 * anonymous client where the policy lets one in (its quota is its address's). `key`: the key the
 * request carried, if any.
 */
export const sqlAccess = (p: SqlPolicy, key: string | undefined, ip: string): Access => {
  if (key !== undefined && p.keys.has(key)) return { ok: true, client: `key:${key}` };
  if (key === undefined && anonymousAllowed(p, ip)) return { ok: true, client: `ip:${ip}` };
  const how = "an API key with the sql scope (API_KEYS=<key>:<requestsPerMinute>:sql)";
  return key === undefined
    ? { ok: false, status: 401, error: `SQL needs ${how}` }
    : { ok: false, status: 403, error: `this API key has no sql scope: SQL needs ${how}` };
};
