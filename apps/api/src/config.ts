import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  namedChainId,
  REFERENCE_EVM_CHAIN_ID,
  SettingError,
  Settings,
  type SettingsValues,
} from "@explorer/service";
import type { StoreTarget } from "@explorer/store";
import { DEFAULT_SQL_LIMITS } from "@explorer/store/sql-sandbox";
import type { VerifierOptions } from "@explorer/verifier";
import { isLoopback, type SqlPolicy } from "./endpoints/sql/access.ts";
import { type ApiSettings, keysWithScope, parseApiKeys } from "./http/app.ts";

export const verifierOptions = (c: {
  solcCacheDir: string;
  solcBuilds: string;
  verifyWorkers: number;
  verifyTimeoutMs: number;
  verifyMemoryMb: number;
}): VerifierOptions => ({
  ...(c.solcCacheDir ? { cacheDir: c.solcCacheDir } : {}),
  ...(c.solcBuilds ? { builds: c.solcBuilds } : {}),
  size: c.verifyWorkers,
  timeoutMs: c.verifyTimeoutMs,
  maxMemoryMb: c.verifyMemoryMb,
});

/**
 * The record cache's directory for a store: the one set; by default `api-records` beside a chDB
 * directory, or for a server one under ~/.cache/cosmos-evm-explorer/api-records named after the
 * server and database (not the temp dir, which can be memory; the file is a cache: lost, it is
 * filled again); `off`: none (undefined).
 */
export const recordCacheDir = (setting: string, store: StoreTarget, storeDb: string) => {
  if (setting === "off") return undefined;
  if (setting) return setting;
  if (store.kind === "chdb") return join(dirname(resolve(store.path)), "api-records");
  const name = createHash("sha256")
    .update(`${store.url}/${store.username ?? ""}/${storeDb}`)
    .digest("hex");
  return join(homedir(), ".cache", "cosmos-evm-explorer", "api-records", name.slice(0, 16));
};

/**
 * The API's part of the process's settings (@explorer/service's registry holds their defaults and
 * meanings; the command line or the environment gives them).
 */
export const ApiConfig = Settings.useSync((s) => ({
  port: s.apiPort,
  host: s.apiHost,
  storeUrl: s.storeUrl,
  storeDb: s.storeDb,
  prefix: s.prefix,
  streamConnectionsPerIp: s.streamConnectionsPerIp,
  trustedProxies: s.trustedProxies,
  /** NATS: verifications are recorded in its log, and the stream's "projected" events come from it. */
  nats: s.logBackend === "nats" ? { url: s.natsUrl, chainId: namedChainId(s) } : undefined,
  metricsPort: s.metricsPort,
  metricsHost: s.metricsHost,
  /** The EVM chain id (Etherscan's `chainid`). */
  evmChainId: s.evmChainId ?? REFERENCE_EVM_CHAIN_ID,
  settings: s,
}));

/** The REST API's settings (checked: a bad NATIVE_COINS or API_KEYS is a SettingError). */
export const apiSettings = (
  s: SettingsValues,
  store: StoreTarget,
  storeDb: string,
): ApiSettings => ({
  prefix: s.prefix,
  nativeCoins: parseNativeCoins(s.nativeCoins),
  rateLimitPerMinute: s.rateLimit,
  apiKeys: parseApiKeys(s.apiKeys, s.rateLimit),
  maxBodyBytes: s.maxBodyBytes,
  trustedProxies: s.trustedProxies,
  recordCacheDir: recordCacheDir(s.recordCacheDir, store, storeDb),
  sql: sqlPolicy(s),
});

/** The SQL endpoint's policy from the SQL_* settings and API_KEYS' scopes. */
export const sqlPolicy = (s: SettingsValues): SqlPolicy => {
  for (const [name, v] of [
    ["SQL_QUERIES_PER_MINUTE", s.sqlPerMinute],
    ["SQL_MAX_CONCURRENT", s.sqlMaxConcurrent],
    ["SQL_MAX_EXECUTION_S", s.sqlMaxExecutionS],
    ["SQL_MAX_RESULT_ROWS", s.sqlMaxResultRows],
    ["SQL_MAX_ROWS_TO_READ", s.sqlMaxRowsToRead],
    ["SQL_MAX_MEMORY_MB", s.sqlMaxMemoryMb],
  ] as const)
    if (v < 1) throw new SettingError(`${name} must be at least 1 (got ${v})`);
  return {
    keys: keysWithScope(s.apiKeys, "sql"),
    anonymous: s.sqlAnonymous,
    listensOnLoopback: isLoopback(s.apiHost),
    perMinute: s.sqlPerMinute,
    maxConcurrent: s.sqlMaxConcurrent,
    limits: {
      ...DEFAULT_SQL_LIMITS,
      maxExecutionS: s.sqlMaxExecutionS,
      maxResultRows: s.sqlMaxResultRows,
      maxRowsToRead: s.sqlMaxRowsToRead,
      maxMemoryBytes: s.sqlMaxMemoryMb * 1024 * 1024,
    },
  };
};

/** `symbol:denom,symbol:denom` → symbol (lowercase) → denom. */
export const parseNativeCoins = (value: string): Map<string, string> =>
  new Map(
    value.split(",").map((p, i) => {
      const m = /^([^:\s]+):([^:\s]+)$/.exec(p.trim());
      if (!m)
        throw new SettingError(
          `NATIVE_COINS: entry ${i + 1} ("${p.trim()}") is not symbol:denom (e.g. test:atest; --native-denoms takes bare denoms)`,
        );
      return [m[1]!.toLowerCase(), m[2]!] as const;
    }),
  );
