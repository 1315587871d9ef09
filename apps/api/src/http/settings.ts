import { SettingError } from "@explorer/service";
import { Context, type Effect, type ManagedRuntime, Option, Redacted } from "effect";
import type Koa from "koa";
import type { Db } from "../db.ts";
import type { NodeLink } from "../endpoints/etherscan/node.ts";
import type { SqlPolicy } from "../endpoints/sql/access.ts";
import type { SqlEngine } from "../endpoints/sql/engine.ts";
import type { ReadModel } from "../read-model/read-model.ts";
import type { Verification } from "../verification/service.ts";
import type { ApiError } from "./errors.ts";

export interface ApiSettings {
  readonly prefix: string;
  /** Native coin symbol (lowercase) → denom. */
  readonly nativeCoins: ReadonlyMap<string, string>;
  readonly rateLimitPerMinute: number;
  /** API key → requests per minute. */
  readonly apiKeys: ReadonlyMap<string, number>;
  /** Largest request body accepted (default 1 MiB): a larger declared length is a 413. */
  readonly maxBodyBytes?: number;
  /** Proxies in front that append to X-Forwarded-For (default 0: the TCP peer is the client). */
  readonly trustedProxies?: number;
  /**
   * Where transactions and blocks are kept for point lookups (records/record-cache.ts): a
   * directory of this API's own; none: every lookup reads the store.
   */
  readonly recordCacheDir?: string;
  /** The SQL endpoint's policy (SQL_* settings), and the engine it runs on (none: no SQL). */
  readonly sql?: SqlPolicy;
  readonly sqlEngine?: SqlEngine;
}

export class Settings extends Context.Service<Settings, ApiSettings>()("api/Settings") {}

export type Services = Db | ReadModel | Settings | Verification | NodeLink;
export type Handler = (ctx: Koa.Context) => Effect.Effect<unknown, ApiError, Services>;
export type Runtime = ManagedRuntime.ManagedRuntime<Services, never>;

/** Scopes a key may be given, after its limit: `sql` (`key:600:sql`). */
const SCOPES = /^sql$/;

/** The keys of API_KEYS given `scope` (`key:limit:sql`, or `key::sql` with the default limit). */
export const keysWithScope = (
  value: Option.Option<Redacted.Redacted<string>>,
  scope: "sql",
): Set<string> => {
  const out = new Set<string>();
  if (Option.isNone(value)) return out;
  for (const part of Redacted.value(value.value).split(",")) {
    const [key, , scopes] = part.trim().split(":");
    if (key && scopes?.split("+").includes(scope)) out.add(key);
  }
  return out;
};

/**
 * Parses `key:limit,key:limit` (a bare key gets the anonymous limit × 10). A limit that is not a
 * positive integer is refused (it would otherwise mean no limit); the message never quotes a key.
 */
export const parseApiKeys = (
  value: Option.Option<Redacted.Redacted<string>>,
  anonymous: number,
): Map<string, number> => {
  const out = new Map<string, number>();
  if (anonymous < 1)
    throw new SettingError(
      `RATE_LIMIT_PER_MINUTE must be at least 1 (got ${anonymous}): requests per minute per IP`,
    );
  if (Option.isNone(value)) return out;
  Redacted.value(value.value)
    .split(",")
    .forEach((part, i) => {
      const [key, limit, scopes, ...rest] = part.trim().split(":");
      if (!key) return;
      if (
        rest.length ||
        (limit !== undefined && !/^[1-9]\d{0,9}$/.test(limit) && !(limit === "" && scopes)) ||
        (scopes !== undefined && !SCOPES.test(scopes))
      )
        throw new SettingError(
          `API_KEYS: entry ${i + 1} is not key:requestsPerMinute with a positive integer limit, then scopes if any (key:600:sql)`,
        );
      out.set(key, limit ? Number(limit) : anonymous * 10);
    });
  return out;
};
