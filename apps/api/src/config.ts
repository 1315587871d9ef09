import { Config } from "effect";

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
  /** API keys as `key:requestsPerMinute` pairs, comma-separated (Authorization: Bearer <key>). */
  apiKeys: Config.option(Config.Redacted("API_KEYS")),
  /** NATS for the stream's "projected" events (several instances); empty: poll the store. */
  natsUrl: Config.String("NATS_URL").pipe(Config.withDefault("")),
  chainId: Config.String("CHAIN_ID").pipe(Config.withDefault("evmd-local-1")),
  metricsPort: Config.Int("METRICS_PORT").pipe(Config.withDefault(0)),
  metricsHost: Config.String("METRICS_HOST").pipe(Config.withDefault("127.0.0.1")),
});
