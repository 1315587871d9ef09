import { readFileSync } from "node:fs";
import {
  type PolicyOverrides,
  type PoolOptions,
  parseOverrides,
  parseUpstreams,
  type UpstreamSpec,
} from "@explorer/rpc-proxy";
import { asSetting, SettingError } from "@explorer/service";
import { Config, Option, Redacted } from "effect";

/** The JSON-RPC proxy's settings (environment; defaults in docs/json-rpc.md). */
export const RpcConfig = Config.all({
  path: Config.String("RPC_PATH").pipe(Config.withDefault("/rpc")),
  /**
   * Nodes: `http://…|ws://…` per node, comma-separated; `none` or empty: the index alone (an
   * empty variable reads as unset to Config, so rpcSettings looks at the environment itself).
   */
  upstreams: Config.String("RPC_UPSTREAMS").pipe(
    Config.withDefault("http://127.0.0.1:8545|ws://127.0.0.1:8546"),
  ),
  privateToken: Config.option(Config.Redacted("RPC_PRIVATE_TOKEN")),
  policyFile: Config.String("RPC_POLICY_FILE").pipe(Config.withDefault("")),
  rateLimit: Config.Int("RPC_RATE_LIMIT_PER_MINUTE").pipe(Config.withDefault(6000)),
  maxBodyBytes: Config.Int("RPC_MAX_BODY_BYTES").pipe(Config.withDefault(5 * 1024 * 1024)),
  batchLimit: Config.Int("RPC_BATCH_LIMIT").pipe(Config.withDefault(1000)),
  timeoutMs: Config.Int("RPC_UPSTREAM_TIMEOUT_MS").pipe(Config.withDefault(30_000)),
  retries: Config.Int("RPC_RETRIES").pipe(Config.withDefault(2)),
  healthIntervalMs: Config.Int("RPC_HEALTH_INTERVAL_MS").pipe(Config.withDefault(2000)),
  maxLagBlocks: Config.Int("RPC_MAX_LAG_BLOCKS").pipe(Config.withDefault(10)),
  balance: Config.Literals(["priority", "round-robin"], "RPC_BALANCE").pipe(
    Config.withDefault("priority" as const),
  ),
  logsMaxRange: Config.Int("RPC_LOGS_MAX_RANGE").pipe(Config.withDefault(1_000_000)),
  logsMaxResults: Config.Int("RPC_LOGS_MAX_RESULTS").pipe(Config.withDefault(10_000)),
  cacheMb: Config.Int("RPC_CACHE_MB").pipe(Config.withDefault(64)),
  /** Cheap reads of concurrent clients share upstream batches of at most this many; 0: never. */
  coalesce: Config.Int("RPC_COALESCE").pipe(Config.withDefault(16)),
  /** The EVM chain id, for eth_chainId and net_version when no node is configured. */
  chainId: Config.String("EVM_CHAIN_ID").pipe(Config.withDefault("262144")),
});

export interface RpcSettings {
  /** The HTTP path of {rpc_http_url}; WebSocket upgrades on the same path are {rpc_ws_url}. */
  readonly path: string;
  readonly upstreams: readonly UpstreamSpec[];
  /** Unlocks private methods (Authorization: Bearer <token>); none: private methods are refused. */
  readonly privateToken?: string;
  readonly policy: PolicyOverrides;
  /** Calls per minute per IP without a key (a batch counts each message). */
  readonly rateLimitPerMinute: number;
  /** Proxies in front that append to X-Forwarded-For (the REST API's setting: clientIp). */
  readonly trustedProxies?: number;
  /** API keys (shared with the REST API) → calls per minute. */
  readonly apiKeys: ReadonlyMap<string, number>;
  readonly maxBodyBytes: number;
  readonly batchLimit: number;
  readonly pool: PoolOptions;
  readonly logs: { readonly maxRange: number; readonly maxResults: number };
  readonly cacheBytes: number;
  readonly coalesce: number;
  readonly chainId?: bigint;
}

/** The policy file's JSON; a file that cannot be read or parsed is a SettingError naming it. */
const readPolicyFile = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new SettingError(`RPC_POLICY_FILE ${file}: ${(e as Error).message}`);
  }
};

/** Settings from the configuration (the policy file is read and checked here). */
export const rpcSettings = (
  cfg: Config.Success<typeof RpcConfig>,
  apiKeys: ReadonlyMap<string, number>,
  trustedProxies = 0,
): RpcSettings => {
  if (cfg.rateLimit < 1)
    throw new SettingError(
      `RPC_RATE_LIMIT_PER_MINUTE must be at least 1 (got ${cfg.rateLimit}): calls per minute per IP`,
    );
  if (!cfg.path.startsWith("/"))
    throw new SettingError(`RPC_PATH must start with "/" (got ${cfg.path})`);
  if (cfg.chainId && !/^(0x[0-9a-fA-F]+|\d+)$/.test(cfg.chainId))
    throw new SettingError(`EVM_CHAIN_ID must be a number, decimal or 0x hex (got ${cfg.chainId})`);
  const policy = cfg.policyFile
    ? parseOverrides(readPolicyFile(cfg.policyFile), cfg.policyFile)
    : {};
  return {
    path: cfg.path,
    upstreams: asSetting(() =>
      parseUpstreams(process.env.RPC_UPSTREAMS === "" ? "none" : cfg.upstreams),
    ),
    ...(Option.isSome(cfg.privateToken)
      ? { privateToken: Redacted.value(cfg.privateToken.value) }
      : {}),
    policy,
    rateLimitPerMinute: cfg.rateLimit,
    trustedProxies,
    apiKeys,
    maxBodyBytes: cfg.maxBodyBytes,
    batchLimit: cfg.batchLimit,
    pool: {
      timeoutMs: cfg.timeoutMs,
      retries: cfg.retries,
      healthIntervalMs: cfg.healthIntervalMs,
      maxLagBlocks: cfg.maxLagBlocks,
      balance: cfg.balance,
    },
    logs: { maxRange: cfg.logsMaxRange, maxResults: cfg.logsMaxResults },
    cacheBytes: cfg.cacheMb * 1024 * 1024,
    coalesce: cfg.coalesce,
    ...(cfg.chainId ? { chainId: BigInt(cfg.chainId) } : {}),
  };
};
