import { logTarget, Settings } from "@explorer/service";

/**
 * The projector's part of the process's settings (@explorer/service's registry holds their
 * defaults and meanings; the command line or the environment gives them).
 */
export const ProjectorConfig = Settings.useSync((s) => ({
  /** `chdb:<dir>` (embedded) or `http://user:pass@host:8123` (a ClickHouse server). */
  storeUrl: s.storeUrl,
  /** Base name of the databases: table sets are `<base>_<n>`, the pointer `<base>_meta`, views `<base>`. */
  storeDb: s.storeDb,
  ...logTarget(s),
  prefix: s.prefix,
  /** Native coins for the rich list (the same list for following and for a re-index). */
  nativeDenoms: s.nativeDenoms,
  batchBlocks: s.batchBlocks,
  batchIdleMs: s.batchIdleMs,
  /** A batch is also written once its encoded rows reach this many bytes (bounds memory). */
  batchBytes: s.batchBytes,
  /** Threads that decode and project log records beside the one that writes (0: all in one). */
  workers: s.projectWorkers,
  /** Keep following the log, or stop at its end. */
  follow: s.follow,
  /** Replay the whole log again into the current set, ignoring the recorded progress. */
  fromStart: s.fromStart,
  metricsPort: s.metricsPort,
  metricsHost: s.metricsHost,
}));
