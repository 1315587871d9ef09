import { REFERENCE_CHAIN_ID, type SettingsValues } from "./registry.ts";

/**
 * Parts of the settings several apps read alike, derived in one place: the chain id that names
 * the NATS stream, the raw-block log to open.
 */
export const namedChainId = (s: SettingsValues): string => s.chainId ?? REFERENCE_CHAIN_ID;

/** The raw-block log of the settings, as openLogPatiently takes it. */
export const logTarget = (s: SettingsValues) => ({
  backend: s.logBackend,
  dir: s.logDir,
  natsUrl: s.natsUrl,
  chainId: namedChainId(s),
});
