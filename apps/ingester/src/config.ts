import { Settings } from "@explorer/service";
import { Effect } from "effect";
import { BadSetup } from "./errors.ts";

/**
 * The ingester's parts of the process's settings (@explorer/service's registry holds their
 * defaults and meanings; the command line or the environment gives them).
 */
export const NodeConfig = Effect.gen(function* () {
  const s = yield* Settings;
  if (!s.cometRpc)
    return yield* new BadSetup({
      message:
        "no node to follow: give --comet-rpc <url> (COMET_RPC_URL), e.g. http://127.0.0.1:26657 for the reference chain",
    });
  return { cometRpc: s.cometRpc, rest: s.rest, evmRpc: s.evmRpc, prefix: s.prefix };
});

export const LogConfig = Settings.useSync((s) => ({
  backend: s.logBackend,
  dir: s.logDir,
  natsUrl: s.natsUrl,
}));

export const IngestConfig = Settings.useSync((s) => ({
  /** The chain id the node must report; empty: take whatever it reports. */
  chainId: s.chainId ?? "",
  startHeight: s.startHeight,
  /** Heights assembled at once during backfill (published strictly in order). */
  concurrency: s.ingestConcurrency,
  /** Stop after this height (0: follow the head forever). */
  stopHeight: s.stopHeight,
  pollMs: s.headPollMs,
  metricsPort: s.metricsPort,
  metricsHost: s.metricsHost,
  progress: s.progress,
}));

export const MetadataConfig = Settings.useSync((s) => ({
  enabled: s.metadataFetch,
  timeoutMs: s.metadataTimeoutMs,
  maxBytes: s.metadataMaxBytes,
  attempts: s.metadataAttempts,
  ipfsGateway: s.ipfsGateway,
  allowPrivate: s.metadataAllowPrivate,
}));
