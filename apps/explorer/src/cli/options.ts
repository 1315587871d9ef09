/**
 * Every setting of every command, as data: the flag, the environment variable the apps read, the
 * default and what it does. Flags, the config file and `--help` all come from this table; the
 * apps themselves read only the environment (their Config definitions hold the same defaults,
 * which options.test.ts checks).
 */
export interface Option {
  /** Flag name without dashes; also the config-file key. */
  readonly flag: string;
  readonly env: string;
  readonly kind: "string" | "int" | "bool" | "secret";
  readonly default: string;
  readonly help: string;
  /** Shown in the help as the value's name, e.g. `<url>`. */
  readonly value?: string;
  /** The only values it takes (any case; the apps read this spelling), shown as the value's name. */
  readonly choices?: readonly string[];
  /** A flag without which this one does nothing (given alone on the command line: an error). */
  readonly needs?: string;
}

const o = (
  flag: string,
  env: string,
  kind: Option["kind"],
  def: string,
  help: string,
  value?: string,
): Option => {
  // `<a|b|c>` names the only values it takes
  const choices = /^<([\w-]+(?:\|[\w-]+)+)>$/.exec(value ?? "")?.[1]?.split("|");
  return {
    flag,
    env,
    kind,
    default: def,
    help,
    ...(value ? { value } : {}),
    ...(choices ? { choices } : {}),
  };
};

// Pointing at a chain: one flag per node address.
const cometRpc = o(
  "comet-rpc",
  "COMET_RPC_URL",
  "string",
  "http://127.0.0.1:26657",
  "CometBFT RPC of the node",
  "<url>",
);
const rest = o(
  "rest",
  "COSMOS_REST_URL",
  "string",
  "http://127.0.0.1:1317",
  "Cosmos REST (LCD) of the node",
  "<url>",
);
const evmRpc = o(
  "evm-rpc",
  "EVM_RPC_URL",
  "string",
  "http://127.0.0.1:8545",
  "EVM JSON-RPC of the node",
  "<url>",
);
const prefix = o(
  "prefix",
  "BECH32_PREFIX",
  "string",
  "cosmos",
  "bech32 prefix of account addresses",
);
const chainId = o(
  "chain-id",
  "CHAIN_ID",
  "string",
  "",
  "chain id the node must report (empty: whatever it reports)",
);
const chainIdNamed = o(
  "chain-id",
  "CHAIN_ID",
  "string",
  "evmd-local-1",
  "chain id, names the NATS stream and subjects",
);

const logBackend = o(
  "log",
  "LOG_BACKEND",
  "string",
  "embedded",
  "raw-block log: embedded (a file) or nats (JetStream)",
  "<embedded|nats>",
);
const logDir = o(
  "log-dir",
  "LOG_DIR",
  "string",
  ".data/log",
  "directory of the embedded log",
  "<dir>",
);
const nats = o(
  "nats",
  "NATS_URL",
  "string",
  "nats://127.0.0.1:4222",
  "NATS server (log backend nats)",
  "<url>",
);
const natsStream = o(
  "nats",
  "NATS_URL",
  "string",
  "",
  "NATS server for the stream's 'projected' events (several API instances); empty: poll the store",
  "<url>",
);

const store = o(
  "store",
  "STORE_URL",
  "string",
  "chdb:.data/chdb",
  "ClickHouse: chdb:<dir> (embedded) or http://user:pass@host:8123",
  "<url>",
);
const storeDb = o(
  "store-db",
  "STORE_DB",
  "string",
  "explorer",
  "base name of the databases",
  "<name>",
);

const metricsPort = o(
  "metrics-port",
  "METRICS_PORT",
  "int",
  "0",
  "port of /metrics, /health and /ready on --metrics-host (0: off)",
  "<port>",
);
const metricsHost = o(
  "metrics-host",
  "METRICS_HOST",
  "string",
  "127.0.0.1",
  "interface of the metrics port (0.0.0.0 in containers)",
  "<host>",
);
const logFormat = o(
  "log-format",
  "LOG_FORMAT",
  "string",
  "pretty",
  "pretty or json (one JSON object per line, for log shippers)",
  "<pretty|json>",
);
const logLevel = o(
  "log-level",
  "LOG_LEVEL",
  "string",
  "Info",
  "minimum level (any case)",
  "<Debug|Info|Warn|Error>",
);

const port = o(
  "port",
  "API_PORT",
  "int",
  "8080",
  "port of the REST API, stream and JSON-RPC",
  "<port>",
);
const host = o(
  "host",
  "API_HOST",
  "string",
  "127.0.0.1",
  "interface to listen on (0.0.0.0 for all)",
  "<host>",
);
const nativeCoins = o(
  "native-coins",
  "NATIVE_COINS",
  "string",
  "test:atest",
  "native coins as symbol:denom pairs (rich list)",
  "<list>",
);
const rateLimit = o(
  "rate-limit",
  "RATE_LIMIT_PER_MINUTE",
  "int",
  "1200",
  "requests per minute per IP without a key",
  "<n>",
);
const maxBodyBytes = o(
  "max-body-bytes",
  "API_MAX_BODY_BYTES",
  "int",
  String(1024 * 1024),
  "largest REST request body, as a contract verification's standard-JSON input",
  "<n>",
);
const trustedProxies = o(
  "trusted-proxies",
  "API_TRUSTED_PROXIES",
  "int",
  "0",
  "proxies in front of the API that append to X-Forwarded-For: rate limits count the address the outermost one saw (0: the TCP peer)",
  "<n>",
);
const recordCache = o(
  "record-cache",
  "RECORD_CACHE_DIR",
  "string",
  "",
  "where the API keeps transactions and blocks for point lookups (default: api-records beside the chDB directory; for a ClickHouse server, one under ~/.cache/cosmos-evm-explorer/api-records; off: none)",
  "<dir>",
);
const streamConnections = o(
  "stream-connections-per-ip",
  "STREAM_MAX_CONNECTIONS_PER_IP",
  "int",
  "100",
  "stream connections open at once from one IP (0: no cap; behind a proxy every client shares its IP)",
  "<n>",
);
const apiKeys = o(
  "api-keys",
  "API_KEYS",
  "secret",
  "",
  "API keys as key:requestsPerMinute pairs (Authorization: Bearer <key>, or Basic with the key as password)",
  "<list>",
);

const nativeDenoms = o(
  "native-denoms",
  "NATIVE_DENOMS",
  "string",
  "atest",
  "native denoms, comma-separated",
  "<list>",
);
const batchBlocks = o(
  "batch-blocks",
  "BATCH_BLOCKS",
  "int",
  "500",
  "heights per insert batch",
  "<n>",
);
const batchIdleMs = o(
  "batch-idle-ms",
  "BATCH_IDLE_MS",
  "int",
  "100",
  "flush a partial batch after this idle time",
  "<ms>",
);
const batchBytes = o(
  "batch-bytes",
  "BATCH_BYTES",
  "int",
  String(128 * 1024 * 1024),
  "also write a batch once its rows reach this many bytes",
  "<n>",
);
const projectWorkers = o(
  "workers",
  "PROJECT_WORKERS",
  "int",
  "2",
  "threads that decode and project while catching up (0: one thread)",
  "<n>",
);

const startHeight = o("start-height", "START_HEIGHT", "int", "1", "first height to ingest", "<h>");
const stopHeight = o(
  "stop-height",
  "STOP_HEIGHT",
  "int",
  "0",
  "stop after this height (0: follow the head)",
  "<h>",
);

const evmChainId = o(
  "evm-chain-id",
  "EVM_CHAIN_ID",
  "int",
  "262144",
  "EVM chain id (Etherscan's chainid)",
  "<id>",
);
const solcCacheDir = o(
  "solc-cache-dir",
  "SOLC_CACHE_DIR",
  "string",
  "",
  "compiler builds cache (empty: ~/.cache/cosmos-evm-explorer/solc)",
  "<dir>",
);
const solcBuilds = o(
  "solc-builds",
  "SOLC_BUILDS",
  "string",
  "",
  "another source of compiler builds: a directory or http(s) address laid out like solc-bin",
  "<dir-or-url>",
);
const verifyWorkers = o(
  "verify-workers",
  "VERIFY_WORKERS",
  "int",
  "1",
  "compiler threads for contract verification",
  "<n>",
);
const verifyTimeoutMs = o(
  "verify-timeout-ms",
  "VERIFY_TIMEOUT_MS",
  "int",
  "120000",
  "time limit of one compilation",
  "<ms>",
);
const verifyMemoryMb = o(
  "verify-memory-mb",
  "VERIFY_MEMORY_MB",
  "int",
  "2048",
  "memory limit of a compiler thread",
  "<MiB>",
);
const verification = [
  evmChainId,
  solcCacheDir,
  solcBuilds,
  verifyWorkers,
  verifyTimeoutMs,
  verifyMemoryMb,
];

const metadataAllowPrivate = o(
  "metadata-allow-private",
  "METADATA_ALLOW_PRIVATE",
  "bool",
  "false",
  "allow metadata from private, loopback and link-local addresses",
);

// The node JSON-RPC proxy (docs/json-rpc.md).
const rpcUpstreams = o(
  "rpc-upstreams",
  "RPC_UPSTREAMS",
  "string",
  "http://127.0.0.1:8545|ws://127.0.0.1:8546",
  "nodes behind the JSON-RPC proxy: http://…|ws://… per node, comma-separated (none or empty: the index alone)",
  "<list>",
);
const rpc = [
  o(
    "rpc-path",
    "RPC_PATH",
    "string",
    "/rpc",
    "path of the JSON-RPC proxy (HTTP POST and WebSocket)",
    "<path>",
  ),
  o(
    "rpc-private-token",
    "RPC_PRIVATE_TOKEN",
    "secret",
    "",
    "bearer token that unlocks private methods (personal_, miner_, debug_)",
    "<token>",
  ),
  o(
    "rpc-policy-file",
    "RPC_POLICY_FILE",
    "string",
    "",
    "JSON file overriding the availability table",
    "<file>",
  ),
  o(
    "rpc-rate-limit",
    "RPC_RATE_LIMIT_PER_MINUTE",
    "int",
    "6000",
    "JSON-RPC calls per minute per IP without a key",
    "<n>",
  ),
  o(
    "rpc-max-body-bytes",
    "RPC_MAX_BODY_BYTES",
    "int",
    "5242880",
    "largest JSON-RPC request body",
    "<n>",
  ),
  o("rpc-batch-limit", "RPC_BATCH_LIMIT", "int", "1000", "most calls in one batch", "<n>"),
  o(
    "rpc-upstream-timeout-ms",
    "RPC_UPSTREAM_TIMEOUT_MS",
    "int",
    "30000",
    "time limit of one upstream call",
    "<ms>",
  ),
  o("rpc-retries", "RPC_RETRIES", "int", "2", "retries of safe reads on another upstream", "<n>"),
  o(
    "rpc-health-interval-ms",
    "RPC_HEALTH_INTERVAL_MS",
    "int",
    "2000",
    "upstream health check period",
    "<ms>",
  ),
  o(
    "rpc-max-lag-blocks",
    "RPC_MAX_LAG_BLOCKS",
    "int",
    "10",
    "an upstream this far behind the best is unhealthy",
    "<n>",
  ),
  o(
    "rpc-balance",
    "RPC_BALANCE",
    "string",
    "priority",
    "priority (first healthy) or round-robin",
    "<priority|round-robin>",
  ),
  o(
    "rpc-logs-max-range",
    "RPC_LOGS_MAX_RANGE",
    "int",
    "1000000",
    "widest eth_getLogs block range",
    "<n>",
  ),
  o(
    "rpc-logs-max-results",
    "RPC_LOGS_MAX_RESULTS",
    "int",
    "10000",
    "most logs in one eth_getLogs answer",
    "<n>",
  ),
  o("rpc-cache-mb", "RPC_CACHE_MB", "int", "64", "cache of answers that cannot change", "<MiB>"),
  o(
    "rpc-coalesce",
    "RPC_COALESCE",
    "int",
    "16",
    "cheap reads of concurrent clients share upstream batches of at most this many (0: never)",
    "<n>",
  ),
];

/** Settings every command takes. */
export const commonOptions: readonly Option[] = [logFormat, logLevel];

export const ingestOptions: readonly Option[] = [
  cometRpc,
  rest,
  evmRpc,
  prefix,
  chainId,
  logBackend,
  logDir,
  nats,
  startHeight,
  stopHeight,
  o(
    "concurrency",
    "INGEST_CONCURRENCY",
    "int",
    "8",
    "heights assembled at once while catching up",
    "<n>",
  ),
  o(
    "head-poll-ms",
    "HEAD_POLL_MS",
    "int",
    "250",
    "how often the node's committed height is polled",
    "<ms>",
  ),
  o("progress", "PROGRESS", "bool", "true", "print a progress line on a terminal"),
  o(
    "metadata-fetch",
    "METADATA_FETCH",
    "bool",
    "true",
    "fetch NFT metadata (tokenURI) into the log",
  ),
  o(
    "metadata-timeout-ms",
    "METADATA_TIMEOUT_MS",
    "int",
    "5000",
    "timeout of one metadata fetch",
    "<ms>",
  ),
  o(
    "metadata-max-bytes",
    "METADATA_MAX_BYTES",
    "int",
    "1048576",
    "largest metadata document accepted",
    "<n>",
  ),
  o("metadata-attempts", "METADATA_ATTEMPTS", "int", "3", "attempts per metadata document", "<n>"),
  o(
    "ipfs-gateway",
    "IPFS_GATEWAY",
    "string",
    "https://ipfs.io/ipfs/",
    "gateway for ipfs:// token URIs",
    "<url>",
  ),
  metadataAllowPrivate,
  metricsPort,
  metricsHost,
];

export const reindexOptions: readonly Option[] = [
  store,
  storeDb,
  logBackend,
  logDir,
  nats,
  chainIdNamed,
  prefix,
  nativeDenoms,
  batchBlocks,
  batchIdleMs,
  batchBytes,
  projectWorkers,
];

export const projectOptions: readonly Option[] = [
  ...reindexOptions,
  o("follow", "FOLLOW", "bool", "true", "keep following the log (false: stop at its end)"),
  o(
    "from-start",
    "FROM_START",
    "bool",
    "false",
    "replay the whole log again into the current tables",
  ),
  metricsPort,
  metricsHost,
];

export const apiOptions: readonly Option[] = [
  port,
  host,
  store,
  storeDb,
  prefix,
  nativeCoins,
  rateLimit,
  apiKeys,
  maxBodyBytes,
  trustedProxies,
  recordCache,
  streamConnections,
  natsStream,
  chainIdNamed,
  {
    ...logBackend,
    help: "nats: this API records contract verifications in the JetStream log (embedded: only `start` can)",
  },
  ...verification,
  rpcUpstreams,
  ...rpc,
  metricsPort,
  metricsHost,
];

export const migrateOptions: readonly Option[] = [store, storeDb];

export const startOptions: readonly Option[] = [
  o(
    "data-dir",
    "EXPLORER_DATA_DIR",
    "string",
    ".data",
    "where the log (log/) and chDB (chdb/) live",
    "<dir>",
  ),
  {
    ...cometRpc,
    default: "",
    help: "CometBFT RPC of a node to follow (empty: serve the bundled sample chain)",
  },
  {
    ...startHeight,
    help: "with --comet-rpc: first height to ingest into an empty data dir",
    needs: "comet-rpc",
  },
  { ...rest, needs: "comet-rpc" },
  { ...evmRpc, needs: "comet-rpc" },
  {
    ...o(
      "evm-ws",
      "EVM_WS_URL",
      "string",
      "",
      "with --comet-rpc: the node's EVM WebSocket, for eth_subscribe through the proxy (empty: --evm-rpc's port plus one, ws://…:8546 for :8545)",
      "<url>",
    ),
    needs: "comet-rpc",
  },
  port,
  host,
  prefix,
  nativeCoins,
  nativeDenoms,
  rateLimit,
  apiKeys,
  maxBodyBytes,
  trustedProxies,
  recordCache,
  streamConnections,
  {
    ...logBackend,
    help: "raw-block log: embedded (under --data-dir) or nats (a JetStream another ingester fills)",
  },
  nats,
  chainIdNamed,
  // Following a node: its own EVM chain id unless given (Etherscan clients send it).
  ...verification.map((v) =>
    v === evmChainId
      ? {
          ...v,
          kind: "string" as const,
          default: "",
          help: "EVM chain id (Etherscan's chainid); empty: the followed node's eth_chainId, or the sample's 262144",
        }
      : v,
  ),
  {
    ...rpcUpstreams,
    default: "",
    help: "nodes behind the JSON-RPC proxy (empty: --evm-rpc and --evm-ws when following a node, else the index alone)",
  },
  ...rpc,
  o(
    "replay-blocks",
    "SAMPLE_REPLAY_BLOCKS",
    "int",
    "120",
    "with the sample chain: how many of its last blocks are replayed at their recorded pace on a fresh data dir",
    "<n>",
  ),
  o(
    "reindex",
    "REINDEX",
    "bool",
    "false",
    "once serving: replay the whole log into a new table set while the current one keeps answering, then switch to it (the old set stays until dropped; each start with it re-indexes again, so give it once)",
  ),
  metricsPort,
  metricsHost,
];

export const recordOptions: readonly Option[] = [
  cometRpc,
  rest,
  evmRpc,
  prefix,
  startHeight,
  { ...stopHeight, help: "last height to record (0: the node's head when recording starts)" },
  o("out", "RECORD_OUT", "string", "sample/log.dat", "file to write the recorded log to", "<file>"),
  metadataAllowPrivate,
];
