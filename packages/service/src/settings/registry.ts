import {
  BadValue,
  bool,
  choice,
  int,
  list,
  optional,
  optionalInt,
  type Setting,
  secret,
  str,
} from "./setting.ts";

/**
 * Every setting of every app, each once: its flag, environment variable, default and meaning. The
 * command line, the config file, the environment and `--help` all read this table, and every app
 * reads its values from the one Settings object resolved from it (settings/service.ts).
 */

const databaseName = (raw: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)
    ? undefined
    : `takes a database name (letters, digits, _; not first a digit), not "${raw}"`;

export const SETTINGS = {
  // The node: one flag per address.
  cometRpc: optional("comet-rpc", "COMET_RPC_URL", {
    help: "CometBFT RPC of the node to follow (empty: none; `start` then serves the bundled sample chain, `ingest` and `record` need one, e.g. http://127.0.0.1:26657)",
    value: "<url>",
  }),
  rest: str("rest", "COSMOS_REST_URL", "http://127.0.0.1:1317", {
    help: "Cosmos REST (LCD) of the node",
    value: "<url>",
  }),
  evmRpc: str("evm-rpc", "EVM_RPC_URL", "http://127.0.0.1:8545", {
    help: "EVM JSON-RPC of the node",
    value: "<url>",
  }),
  evmWs: optional("evm-ws", "EVM_WS_URL", {
    help: "the node's EVM WebSocket, for eth_subscribe through the JSON-RPC proxy (empty: --evm-rpc's port plus one, ws://…:8546 for :8545)",
    value: "<url>",
  }),
  prefix: str("prefix", "BECH32_PREFIX", "cosmos", {
    help: "bech32 prefix of account addresses",
  }),
  chainId: optional("chain-id", "CHAIN_ID", {
    help: "chain id: names the NATS stream and subjects, and a followed node must report it (empty: the node's own when ingesting, else evmd-local-1, the reference chain's)",
  }),

  // The raw-block log.
  logBackend: choice("log", "LOG_BACKEND", ["embedded", "nats"], "embedded", {
    help: "raw-block log: embedded (a file; under `start`, in --data-dir) or nats (JetStream; the API then records verifications there and takes the stream's 'projected' events from NATS)",
  }),
  logDir: str("log-dir", "LOG_DIR", ".data/log", {
    help: "directory of the embedded log",
    value: "<dir>",
  }),
  natsUrl: str("nats", "NATS_URL", "nats://127.0.0.1:4222", {
    help: "NATS server (with --log nats)",
    value: "<url>",
  }),

  // The store.
  storeUrl: str("store", "STORE_URL", "chdb:.data/chdb", {
    help: "ClickHouse: chdb:<dir> (embedded) or http://user:pass@host:8123",
    value: "<url>",
  }),
  storeDb: str("store-db", "STORE_DB", "explorer", {
    help: "base name of the databases",
    value: "<name>",
    check: databaseName,
  }),

  // Every process.
  metricsPort: int("metrics-port", "METRICS_PORT", 0, {
    help: "port of /metrics, /health and /ready on --metrics-host (0: off)",
    value: "<port>",
  }),
  metricsHost: str("metrics-host", "METRICS_HOST", "127.0.0.1", {
    help: "interface of the metrics port (0.0.0.0 in containers)",
    value: "<host>",
  }),
  logFormat: choice("log-format", "LOG_FORMAT", ["pretty", "json"], "pretty", {
    help: "pretty or json (one JSON object per line, for log shippers)",
  }),
  logLevel: choice("log-level", "LOG_LEVEL", ["Debug", "Info", "Warn", "Error"], "Info", {
    help: "minimum level (any case)",
  }),

  // The API.
  apiPort: int("port", "API_PORT", 8080, {
    help: "port of the REST API, stream and JSON-RPC",
    value: "<port>",
  }),
  apiHost: str("host", "API_HOST", "127.0.0.1", {
    help: "interface to listen on (0.0.0.0 for all)",
    value: "<host>",
  }),
  nativeCoins: str("native-coins", "NATIVE_COINS", "test:atest", {
    help: "native coins as symbol:denom pairs (rich list)",
    value: "<list>",
  }),
  rateLimit: int("rate-limit", "RATE_LIMIT_PER_MINUTE", 1200, {
    help: "requests per minute per IP without a key",
    value: "<n>",
  }),
  apiKeys: secret("api-keys", "API_KEYS", {
    help: "API keys as key:requestsPerMinute pairs, each with scopes after a third colon (key:600:sql: may use /api/1.0/sql) (Authorization: Bearer <key>, or Basic with the key as password)",
    value: "<list>",
  }),
  maxBodyBytes: int("max-body-bytes", "API_MAX_BODY_BYTES", 1024 * 1024, {
    help: "largest REST request body, as a contract verification's standard-JSON input",
    value: "<n>",
  }),
  trustedProxies: int("trusted-proxies", "API_TRUSTED_PROXIES", 0, {
    help: "proxies in front of the API that append to X-Forwarded-For: rate limits count the address the outermost one saw (0: the TCP peer)",
    value: "<n>",
  }),
  recordCacheDir: str("record-cache", "RECORD_CACHE_DIR", "", {
    help: "where the API keeps transactions and blocks for point lookups (default: api-records beside the chDB directory; for a ClickHouse server, one under ~/.cache/cosmos-evm-explorer/api-records; off: none)",
    value: "<dir>",
  }),
  // SQL for data teams (/api/1.0/sql, docs/sql.md).
  sqlAnonymous: choice("sql-anonymous", "SQL_ANONYMOUS", ["auto", "on", "off"], "auto", {
    help: "/api/1.0/sql without a key with the sql scope: auto (loopback clients, when the API listens on loopback only), on (anyone), off (no one)",
  }),
  sqlPerMinute: int("sql-queries-per-minute", "SQL_QUERIES_PER_MINUTE", 30, {
    help: "SQL queries per minute per key with the sql scope (anonymous: per IP)",
    value: "<n>",
  }),
  sqlMaxConcurrent: int("sql-max-concurrent", "SQL_MAX_CONCURRENT", 2, {
    help: "SQL queries running at once, all clients together (more: 429)",
    value: "<n>",
  }),
  sqlMaxExecutionS: int("sql-max-execution-s", "SQL_MAX_EXECUTION_S", 30, {
    help: "seconds a SQL query may run (past it: 408)",
    value: "<n>",
  }),
  sqlMaxResultRows: int("sql-max-result-rows", "SQL_MAX_RESULT_ROWS", 1_000_000, {
    help: "rows a SQL answer may hold (more: 429)",
    value: "<n>",
  }),
  sqlMaxRowsToRead: int("sql-max-rows-to-read", "SQL_MAX_ROWS_TO_READ", 1_000_000_000, {
    help: "rows a SQL query may read (more: 429)",
    value: "<n>",
  }),
  sqlMaxMemoryMb: int("sql-max-memory-mb", "SQL_MAX_MEMORY_MB", 1024, {
    help: "memory of one SQL query, in MiB (more: 429)",
    value: "<n>",
  }),
  sqlQuery: str("query", "SQL_QUERY", "", {
    help: "the query of `explorer sql` (also its bare argument)",
    value: "<sql>",
  }),
  sqlOutput: choice("output", "SQL_OUTPUT", ["table", "csv", "json"], "table", {
    help: "how `explorer sql` prints the answer",
  }),
  sqlApi: optional("api", "EXPLORER_API_URL", {
    help: "a running service for `explorer sql` (http://127.0.0.1:3000); empty: straight on --store, which no process may hold",
    value: "<url>",
  }),
  sqlApiKey: secret("api-key", "EXPLORER_API_KEY", {
    help: "the API key `explorer sql` sends (one with the sql scope)",
    value: "<key>",
  }),
  streamConnectionsPerIp: int("stream-connections-per-ip", "STREAM_MAX_CONNECTIONS_PER_IP", 100, {
    help: "stream connections open at once from one IP (0: no cap; behind a proxy every client shares its IP)",
    value: "<n>",
  }),

  // Contract verification.
  evmChainId: {
    ...optionalInt("evm-chain-id", "EVM_CHAIN_ID", {
      help: "EVM chain id, decimal or 0x hex (Etherscan's chainid; eth_chainId without a node); empty: under `start` with --comet-rpc the node's eth_chainId, else 262144 (the reference chain's)",
      value: "<id>",
    }),
    parse: (raw: string): number | undefined => {
      if (raw === "") return undefined;
      if (!(/^(0x[0-9a-fA-F]+|\d+)$/.test(raw) && Number.isSafeInteger(Number(raw))))
        throw new BadValue(`takes a chain id, decimal or 0x hex, not "${raw}"`);
      return Number(raw);
    },
  },
  solcCacheDir: str("solc-cache-dir", "SOLC_CACHE_DIR", "", {
    help: "compiler builds cache (empty: ~/.cache/cosmos-evm-explorer/solc)",
    value: "<dir>",
  }),
  solcBuilds: str("solc-builds", "SOLC_BUILDS", "", {
    help: "another source of compiler builds: a directory or http(s) address laid out like solc-bin",
    value: "<dir-or-url>",
  }),
  verifyWorkers: int("verify-workers", "VERIFY_WORKERS", 1, {
    help: "compiler threads for contract verification",
    value: "<n>",
  }),
  verifyTimeoutMs: int("verify-timeout-ms", "VERIFY_TIMEOUT_MS", 120_000, {
    help: "time limit of one compilation",
    value: "<ms>",
  }),
  verifyMemoryMb: int("verify-memory-mb", "VERIFY_MEMORY_MB", 2048, {
    help: "memory limit of a compiler thread",
    value: "<MiB>",
  }),

  // The node JSON-RPC proxy (docs/json-rpc.md).
  rpcUpstreams: {
    ...optional("rpc-upstreams", "RPC_UPSTREAMS", {
      help: "nodes behind the JSON-RPC proxy: http://…|ws://… per node, comma-separated; none or empty: the index alone (default: the node of --evm-rpc and --evm-ws; under `start`, only with --comet-rpc)",
      value: "<list>",
    }),
    keepsEmpty: true,
    parse: (raw: string): string | undefined => (raw === "" ? "none" : raw),
  },
  rpcPath: str("rpc-path", "RPC_PATH", "/rpc", {
    help: "path of the JSON-RPC proxy (HTTP POST and WebSocket)",
    value: "<path>",
    check: (raw) => (raw.startsWith("/") ? undefined : `must start with "/", not "${raw}"`),
  }),
  rpcPrivateToken: secret("rpc-private-token", "RPC_PRIVATE_TOKEN", {
    help: "bearer token that unlocks private methods (personal_, miner_, debug_)",
    value: "<token>",
  }),
  rpcPolicyFile: str("rpc-policy-file", "RPC_POLICY_FILE", "", {
    help: "JSON file overriding the availability table",
    value: "<file>",
  }),
  rpcRateLimit: int("rpc-rate-limit", "RPC_RATE_LIMIT_PER_MINUTE", 6000, {
    help: "JSON-RPC calls per minute per IP without a key",
    value: "<n>",
  }),
  rpcMaxBodyBytes: int("rpc-max-body-bytes", "RPC_MAX_BODY_BYTES", 5 * 1024 * 1024, {
    help: "largest JSON-RPC request body",
    value: "<n>",
  }),
  rpcBatchLimit: int("rpc-batch-limit", "RPC_BATCH_LIMIT", 1000, {
    help: "most calls in one batch",
    value: "<n>",
  }),
  rpcUpstreamTimeoutMs: int("rpc-upstream-timeout-ms", "RPC_UPSTREAM_TIMEOUT_MS", 30_000, {
    help: "time limit of one upstream call",
    value: "<ms>",
  }),
  rpcRetries: int("rpc-retries", "RPC_RETRIES", 2, {
    help: "retries of safe reads on another upstream",
    value: "<n>",
  }),
  rpcHealthIntervalMs: int("rpc-health-interval-ms", "RPC_HEALTH_INTERVAL_MS", 2000, {
    help: "upstream health check period",
    value: "<ms>",
  }),
  rpcMaxLagBlocks: int("rpc-max-lag-blocks", "RPC_MAX_LAG_BLOCKS", 10, {
    help: "an upstream this far behind the best is unhealthy",
    value: "<n>",
  }),
  rpcBalance: choice("rpc-balance", "RPC_BALANCE", ["priority", "round-robin"], "priority", {
    help: "priority (first healthy) or round-robin",
  }),
  rpcLogsMaxRange: int("rpc-logs-max-range", "RPC_LOGS_MAX_RANGE", 1_000_000, {
    help: "widest eth_getLogs block range",
    value: "<n>",
  }),
  rpcLogsMaxResults: int("rpc-logs-max-results", "RPC_LOGS_MAX_RESULTS", 10_000, {
    help: "most logs in one eth_getLogs answer",
    value: "<n>",
  }),
  rpcCacheMb: int("rpc-cache-mb", "RPC_CACHE_MB", 64, {
    help: "cache of answers that cannot change",
    value: "<MiB>",
  }),
  rpcCoalesce: int("rpc-coalesce", "RPC_COALESCE", 16, {
    help: "cheap reads of concurrent clients share upstream batches of at most this many (0: never)",
    value: "<n>",
  }),

  // The projector.
  nativeDenoms: list("native-denoms", "NATIVE_DENOMS", ["atest"], {
    help: "native denoms, comma-separated",
    value: "<list>",
  }),
  // Up to 2,000 heights and 256 MiB of rows: fewer, larger parts. Project bench (200k txs of dense
  // 72-tx blocks, quiet, two pairs of runs, both orders): 13,894 and 13,629 txs/s, 9.7-9.9 ms of
  // CPU a block, peak RSS 2.2 GiB, against 11,600-12,756 txs/s, 11.0-12.0 ms, 1.6 GiB with 1,000
  // and 128 MiB (and 11,172-11,428, 12.2-12.4 ms with 500 and 128 MiB).
  batchBlocks: int("batch-blocks", "BATCH_BLOCKS", 2000, {
    help: "heights per insert batch",
    value: "<n>",
  }),
  batchIdleMs: int("batch-idle-ms", "BATCH_IDLE_MS", 100, {
    help: "flush a partial batch after this idle time",
    value: "<ms>",
  }),
  // Memory: the batch being filled and the one being written (see batchBlocks for the figures;
  // on the 1M-tx bench 128 MiB had taken ~7% less CPU a block than 64 MiB).
  batchBytes: int("batch-bytes", "BATCH_BYTES", 256 * 1024 * 1024, {
    help: "also write a batch once its rows reach this many bytes",
    value: "<n>",
  }),
  projectWorkers: int("workers", "PROJECT_WORKERS", 2, {
    help: "threads that decode and project while catching up (0: one thread)",
    value: "<n>",
  }),
  follow: bool("follow", "FOLLOW", true, {
    help: "keep following the log (false: stop at its end)",
  }),
  fromStart: bool("from-start", "FROM_START", false, {
    help: "replay the whole log again into the current tables",
  }),

  // The ingester.
  startHeight: int("start-height", "START_HEIGHT", 1, {
    help: "first height to ingest into an empty log",
    value: "<h>",
  }),
  stopHeight: int("stop-height", "STOP_HEIGHT", 0, {
    help: "last height to ingest (0: follow the head; `record`: the node's head when recording starts)",
    value: "<h>",
  }),
  ingestConcurrency: int("concurrency", "INGEST_CONCURRENCY", 8, {
    help: "heights assembled at once while catching up",
    value: "<n>",
  }),
  headPollMs: int("head-poll-ms", "HEAD_POLL_MS", 250, {
    help: "how often the node's committed height is polled",
    value: "<ms>",
  }),
  progress: bool("progress", "PROGRESS", true, { help: "print a progress line on a terminal" }),
  metadataFetch: bool("metadata-fetch", "METADATA_FETCH", true, {
    help: "fetch NFT metadata (tokenURI) into the log",
  }),
  metadataTimeoutMs: int("metadata-timeout-ms", "METADATA_TIMEOUT_MS", 5000, {
    help: "timeout of one metadata fetch",
    value: "<ms>",
  }),
  metadataMaxBytes: int("metadata-max-bytes", "METADATA_MAX_BYTES", 1024 * 1024, {
    help: "largest metadata document accepted",
    value: "<n>",
  }),
  metadataAttempts: int("metadata-attempts", "METADATA_ATTEMPTS", 3, {
    help: "attempts per metadata document",
    value: "<n>",
  }),
  ipfsGateway: str("ipfs-gateway", "IPFS_GATEWAY", "https://ipfs.io/ipfs/", {
    help: "gateway for ipfs:// token URIs",
    value: "<url>",
  }),
  metadataAllowPrivate: bool("metadata-allow-private", "METADATA_ALLOW_PRIVATE", false, {
    help: "allow metadata from private, loopback and link-local addresses",
  }),

  // `start` and `record`.
  dataDir: str("data-dir", "EXPLORER_DATA_DIR", ".data", {
    help: "where the log (log/) and chDB (chdb/) live",
    value: "<dir>",
  }),
  replayBlocks: int("replay-blocks", "SAMPLE_REPLAY_BLOCKS", 120, {
    help: "with the sample chain: how many of its last blocks are replayed at their recorded pace on a fresh data dir",
    value: "<n>",
  }),
  reindex: bool("reindex", "REINDEX", false, {
    help: "once serving: replay the whole log into a new table set while the current one keeps answering, then switch to it (the old set stays until dropped; each start with it re-indexes again, so give it once)",
  }),
  recordOut: str("out", "RECORD_OUT", "sample/log.dat", {
    help: "file to write the recorded log to",
    value: "<file>",
  }),
} satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;

/** The value of every setting, typed. */
export type SettingsValues = {
  readonly [K in SettingKey]: (typeof SETTINGS)[K] extends Setting<infer A> ? A : never;
};

/** The chain id where none is given and no node says its own: the reference chain's. */
export const REFERENCE_CHAIN_ID = "evmd-local-1";
/** The EVM chain id where none is given and no node says its own: the reference chain's. */
export const REFERENCE_EVM_CHAIN_ID = 262144;
