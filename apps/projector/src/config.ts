import { Config } from "effect";
import { DEFAULT_BATCH_BYTES } from "./project.ts";

export const ProjectorConfig = Config.all({
  /** `chdb:<dir>` (embedded, default `chdb:.data/chdb`) or `http://user:pass@host:8123` (a ClickHouse server). */
  storeUrl: Config.String("STORE_URL").pipe(Config.withDefault("chdb:.data/chdb")),
  /** Base name of the databases: table sets are `<base>_<n>`, the pointer `<base>_meta`, views `<base>`. */
  storeDb: Config.String("STORE_DB").pipe(Config.withDefault("explorer")),
  backend: Config.Literals(["embedded", "nats"], "LOG_BACKEND").pipe(
    Config.withDefault("embedded" as const),
  ),
  dir: Config.String("LOG_DIR").pipe(Config.withDefault(".data/log")),
  natsUrl: Config.String("NATS_URL").pipe(Config.withDefault("nats://127.0.0.1:4222")),
  chainId: Config.String("CHAIN_ID").pipe(Config.withDefault("evmd-local-1")),
  prefix: Config.String("BECH32_PREFIX").pipe(Config.withDefault("cosmos")),
  /** Native coins (comma-separated, spaces around them ignored) for the rich list. */
  nativeDenoms: Config.String("NATIVE_DENOMS").pipe(
    Config.withDefault("atest"),
    Config.map((v) =>
      v
        .split(",")
        .map((d) => d.trim())
        .filter((d) => d !== ""),
    ),
  ),
  batchBlocks: Config.Int("BATCH_BLOCKS").pipe(Config.withDefault(500)),
  batchIdleMs: Config.Int("BATCH_IDLE_MS").pipe(Config.withDefault(100)),
  /** A batch is also written once its encoded rows reach this many bytes (bounds memory). */
  batchBytes: Config.Int("BATCH_BYTES").pipe(Config.withDefault(DEFAULT_BATCH_BYTES)),
  /** Threads that decode and project log records beside the one that writes (0: all in one). */
  workers: Config.Int("PROJECT_WORKERS").pipe(Config.withDefault(2)),
  /** Keep following the log (default), or stop at its end. */
  follow: Config.Boolean("FOLLOW").pipe(Config.withDefault(true)),
  /** Replay the whole log again into the current set, ignoring the recorded progress. */
  fromStart: Config.Boolean("FROM_START").pipe(Config.withDefault(false)),
  metricsPort: Config.Int("METRICS_PORT").pipe(Config.withDefault(0)),
  metricsHost: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
});
