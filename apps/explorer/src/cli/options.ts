import { SETTINGS, type Setting, type SettingKey } from "@explorer/service/settings";

/**
 * Which settings each command takes (flags, config-file keys, `--help`). The settings themselves,
 * with their defaults and meanings, are @explorer/service's registry: each is defined once there.
 */
export interface Option extends Setting<unknown> {
  readonly key: SettingKey;
  /** A flag without which this one does nothing (given alone on the command line: an error). */
  readonly needs?: string;
}

const take = (...keys: SettingKey[]): Option[] =>
  keys.map((key) => ({ ...(SETTINGS[key] as Setting<unknown>), key }));

/** With `start`: given without --comet-rpc, it would do nothing. */
const withNode = (options: Option[]): Option[] =>
  options.map((o) => ({ ...o, needs: SETTINGS.cometRpc.flag }));

const verification = take(
  "evmChainId",
  "solcCacheDir",
  "solcBuilds",
  "verifyWorkers",
  "verifyTimeoutMs",
  "verifyMemoryMb",
);

const rpc = take(
  "rpcUpstreams",
  "rpcPath",
  "rpcPrivateToken",
  "rpcPolicyFile",
  "rpcRateLimit",
  "rpcMaxBodyBytes",
  "rpcBatchLimit",
  "rpcUpstreamTimeoutMs",
  "rpcRetries",
  "rpcHealthIntervalMs",
  "rpcMaxLagBlocks",
  "rpcBalance",
  "rpcLogsMaxRange",
  "rpcLogsMaxResults",
  "rpcCacheMb",
  "rpcCoalesce",
);

const restApi = take(
  "apiPort",
  "apiHost",
  "prefix",
  "nativeCoins",
  "rateLimit",
  "apiKeys",
  "maxBodyBytes",
  "trustedProxies",
  "recordCacheDir",
  "streamConnectionsPerIp",
  "sqlAnonymous",
  "sqlPerMinute",
  "sqlMaxConcurrent",
  "sqlMaxExecutionS",
  "sqlMaxResultRows",
  "sqlMaxRowsToRead",
  "sqlMaxMemoryMb",
);

const admin = take("metricsPort", "metricsHost");

/** Settings every command takes. */
export const commonOptions: readonly Option[] = take("logFormat", "logLevel");

export const ingestOptions: readonly Option[] = [
  ...take(
    "cometRpc",
    "rest",
    "evmRpc",
    "prefix",
    "chainId",
    "logBackend",
    "logDir",
    "natsUrl",
    "startHeight",
    "stopHeight",
    "ingestConcurrency",
    "headPollMs",
    "progress",
    "metadataFetch",
    "metadataTimeoutMs",
    "metadataMaxBytes",
    "metadataAttempts",
    "ipfsGateway",
    "metadataAllowPrivate",
  ),
  ...admin,
];

export const reindexOptions: readonly Option[] = take(
  "storeUrl",
  "storeDb",
  "logBackend",
  "logDir",
  "natsUrl",
  "chainId",
  "prefix",
  "nativeDenoms",
  "batchBlocks",
  "batchIdleMs",
  "batchBytes",
  "projectWorkers",
);

export const projectOptions: readonly Option[] = [
  ...reindexOptions,
  ...take("follow", "fromStart"),
  ...admin,
];

export const apiOptions: readonly Option[] = [
  ...restApi,
  ...take("storeUrl", "storeDb", "logBackend", "natsUrl", "chainId"),
  ...verification,
  // the node behind the JSON-RPC proxy when RPC_UPSTREAMS is not given
  ...take("evmRpc", "evmWs"),
  ...rpc,
  ...admin,
];

export const migrateOptions: readonly Option[] = take("storeUrl", "storeDb");

export const startOptions: readonly Option[] = [
  ...take("dataDir", "cometRpc"),
  ...withNode(take("startHeight", "rest", "evmRpc", "evmWs")),
  ...restApi,
  ...take("nativeDenoms", "logBackend", "natsUrl", "chainId"),
  ...verification,
  ...rpc,
  ...take("replayBlocks", "reindex"),
  ...admin,
];

export const recordOptions: readonly Option[] = take(
  "cometRpc",
  "rest",
  "evmRpc",
  "prefix",
  "startHeight",
  "stopHeight",
  "recordOut",
  "metadataAllowPrivate",
);

export const sqlOptions: readonly Option[] = [
  ...take("sqlQuery", "sqlOutput", "sqlApi", "sqlApiKey", "storeUrl", "storeDb"),
  ...take("sqlMaxExecutionS", "sqlMaxResultRows", "sqlMaxRowsToRead", "sqlMaxMemoryMb"),
];
