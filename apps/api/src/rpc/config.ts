import { readFileSync } from "node:fs";
import {
  type PolicyOverrides,
  type PoolOptions,
  parseOverrides,
  parseUpstreams,
  type UpstreamSpec,
} from "@explorer/rpc-proxy";
import {
  asSetting,
  REFERENCE_EVM_CHAIN_ID,
  SettingError,
  type SettingsValues,
} from "@explorer/service";
import { Option, Redacted } from "effect";
import { followedNodeUpstream } from "./node-upstream.ts";

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

/**
 * The proxy's settings (the policy file is read and checked here). Without RPC_UPSTREAMS the
 * proxy forwards to the node of --evm-rpc and --evm-ws when the process has one (`followsNode`:
 * the API alone always, `start` only when it follows a node), else the index answers alone.
 */
export const rpcSettings = (
  s: SettingsValues,
  apiKeys: ReadonlyMap<string, number>,
  followsNode = true,
): RpcSettings => {
  if (s.rpcRateLimit < 1)
    throw new SettingError(
      `RPC_RATE_LIMIT_PER_MINUTE must be at least 1 (got ${s.rpcRateLimit}): calls per minute per IP`,
    );
  const upstreams =
    s.rpcUpstreams ?? (followsNode ? followedNodeUpstream(s.evmRpc, s.evmWs ?? "") : "none");
  const policy = s.rpcPolicyFile
    ? parseOverrides(readPolicyFile(s.rpcPolicyFile), s.rpcPolicyFile)
    : {};
  return {
    path: s.rpcPath,
    upstreams: asSetting(() => parseUpstreams(upstreams)),
    ...(Option.isSome(s.rpcPrivateToken)
      ? { privateToken: Redacted.value(s.rpcPrivateToken.value) }
      : {}),
    policy,
    rateLimitPerMinute: s.rpcRateLimit,
    trustedProxies: s.trustedProxies,
    apiKeys,
    maxBodyBytes: s.rpcMaxBodyBytes,
    batchLimit: s.rpcBatchLimit,
    pool: {
      timeoutMs: s.rpcUpstreamTimeoutMs,
      retries: s.rpcRetries,
      healthIntervalMs: s.rpcHealthIntervalMs,
      maxLagBlocks: s.rpcMaxLagBlocks,
      balance: s.rpcBalance,
    },
    logs: { maxRange: s.rpcLogsMaxRange, maxResults: s.rpcLogsMaxResults },
    cacheBytes: s.rpcCacheMb * 1024 * 1024,
    coalesce: s.rpcCoalesce,
    chainId: BigInt(s.evmChainId ?? REFERENCE_EVM_CHAIN_ID),
  };
};
