import { Config } from "effect";

/**
 * Ingester settings, from the environment (the CLI maps its flags and config file onto the same
 * names). Defaults point at the reference chain on loopback and the embedded log.
 */
export const NodeConfig = Config.all({
  cometRpc: Config.String("COMET_RPC_URL").pipe(Config.withDefault("http://127.0.0.1:26657")),
  rest: Config.String("COSMOS_REST_URL").pipe(Config.withDefault("http://127.0.0.1:1317")),
  evmRpc: Config.String("EVM_RPC_URL").pipe(Config.withDefault("http://127.0.0.1:8545")),
  prefix: Config.String("BECH32_PREFIX").pipe(Config.withDefault("cosmos")),
});

export const LogConfig = Config.all({
  backend: Config.Literals(["embedded", "nats"], "LOG_BACKEND").pipe(
    Config.withDefault("embedded" as const),
  ),
  dir: Config.String("LOG_DIR").pipe(Config.withDefault(".data/log")),
  natsUrl: Config.String("NATS_URL").pipe(Config.withDefault("nats://127.0.0.1:4222")),
});

export const IngestConfig = Config.all({
  /** The chain id the node must report; empty: take whatever it reports. */
  chainId: Config.String("CHAIN_ID").pipe(Config.withDefault("")),
  startHeight: Config.Int("START_HEIGHT").pipe(Config.withDefault(1)),
  /** Heights assembled at once during backfill (published strictly in order). */
  concurrency: Config.Int("INGEST_CONCURRENCY").pipe(Config.withDefault(8)),
  /** Stop after this height (0: follow the head forever). */
  stopHeight: Config.Int("STOP_HEIGHT").pipe(Config.withDefault(0)),
  pollMs: Config.Int("HEAD_POLL_MS").pipe(Config.withDefault(250)),
  metricsPort: Config.Int("METRICS_PORT").pipe(Config.withDefault(0)),
  metricsHost: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
  progress: Config.Boolean("PROGRESS").pipe(Config.withDefault(true)),
});

export const MetadataConfig = Config.all({
  enabled: Config.Boolean("METADATA_FETCH").pipe(Config.withDefault(true)),
  timeoutMs: Config.Int("METADATA_TIMEOUT_MS").pipe(Config.withDefault(5000)),
  maxBytes: Config.Int("METADATA_MAX_BYTES").pipe(Config.withDefault(1024 * 1024)),
  attempts: Config.Int("METADATA_ATTEMPTS").pipe(Config.withDefault(3)),
  ipfsGateway: Config.String("IPFS_GATEWAY").pipe(Config.withDefault("https://ipfs.io/ipfs/")),
  allowPrivate: Config.Boolean("METADATA_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
});
