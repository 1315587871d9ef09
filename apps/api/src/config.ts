import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { StoreTarget } from "@explorer/store";
import type { VerifierOptions } from "@explorer/verifier";
import { Config } from "effect";

/** Compiler builds and threads for verification (also read by the all-in-one `npm start`). */
export const VerifierConfig = {
  /** Compiler builds cache [~/.cache/cosmos-evm-explorer/solc]. */
  solcCacheDir: Config.String("SOLC_CACHE_DIR").pipe(Config.withDefault("")),
  /** Another source of compiler builds (a directory or http(s) address laid out like solc-bin). */
  solcBuilds: Config.String("SOLC_BUILDS").pipe(Config.withDefault("")),
  verifyWorkers: Config.Int("VERIFY_WORKERS").pipe(Config.withDefault(1)),
  verifyTimeoutMs: Config.Int("VERIFY_TIMEOUT_MS").pipe(Config.withDefault(120_000)),
  verifyMemoryMb: Config.Int("VERIFY_MEMORY_MB").pipe(Config.withDefault(2048)),
};

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

/** The record cache's directory (records/record-cache.ts): empty for the default, `off` for none. */
export const RecordCacheConfig = {
  recordCacheDir: Config.String("RECORD_CACHE_DIR").pipe(Config.withDefault("")),
};

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

export const ApiConfig = Config.all({
  port: Config.Int("API_PORT").pipe(Config.withDefault(8080)),
  host: Config.String("API_HOST").pipe(Config.withDefault("127.0.0.1")),
  storeUrl: Config.String("STORE_URL").pipe(Config.withDefault("chdb:.data/chdb")),
  storeDb: Config.String("STORE_DB").pipe(Config.withDefault("explorer")),
  prefix: Config.String("BECH32_PREFIX").pipe(Config.withDefault("cosmos")),
  /** Native coins as `symbol:denom` pairs (the rich list's `type` is a symbol, any case). */
  nativeCoins: Config.String("NATIVE_COINS").pipe(Config.withDefault("test:atest")),
  /** Requests per minute per IP without a key. */
  rateLimit: Config.Int("RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(1200)),
  /** Stream connections open at once from one IP (0: no cap). */
  streamConnectionsPerIp: Config.Int("STREAM_MAX_CONNECTIONS_PER_IP").pipe(Config.withDefault(100)),
  /** API keys as `key:requestsPerMinute` pairs, comma-separated (Authorization: Bearer <key>). */
  apiKeys: Config.option(Config.Redacted("API_KEYS")),
  /** Largest request body accepted, in bytes (a larger one is a 413). */
  maxBodyBytes: Config.Int("API_MAX_BODY_BYTES").pipe(Config.withDefault(1024 * 1024)),
  /** Proxies in front that append to X-Forwarded-For (0: the TCP peer is the client). */
  trustedProxies: Config.Int("API_TRUSTED_PROXIES").pipe(Config.withDefault(0)),
  /** NATS for the stream's "projected" events (several instances); empty: poll the store. */
  natsUrl: Config.String("NATS_URL").pipe(Config.withDefault("")),
  chainId: Config.String("CHAIN_ID").pipe(Config.withDefault("evmd-local-1")),
  metricsPort: Config.Int("METRICS_PORT").pipe(Config.withDefault(0)),
  metricsHost: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
  /** The EVM chain id (Etherscan's `chainid`). */
  evmChainId: Config.Int("EVM_CHAIN_ID").pipe(Config.withDefault(262144)),
  /** Where verifications are recorded: `nats` (the JetStream log), or `embedded` (not from here). */
  logBackend: Config.Literals(["embedded", "nats"], "LOG_BACKEND").pipe(
    Config.withDefault("embedded" as const),
  ),
  ...VerifierConfig,
  ...RecordCacheConfig,
});
