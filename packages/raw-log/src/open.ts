import { EmbeddedLog } from "./embedded.ts";
import { NatsLog } from "./nats.ts";
import { LogUnavailableError, type RawLog } from "./port.ts";
import { sleep } from "./sleep.ts";

export interface LogSettings {
  readonly backend: "embedded" | "nats";
  /** Embedded: the directory of the log. */
  readonly dir: string;
  /** NATS: server URL(s). */
  readonly natsUrl: string;
  /** NATS: the stream is named after the chain. */
  readonly chainId: string;
}

/** Opens the log the settings name. */
export const openLog = (s: LogSettings): Promise<RawLog> =>
  s.backend === "nats"
    ? NatsLog.open({ servers: s.natsUrl, chainId: s.chainId })
    : Promise.resolve(EmbeddedLog.open({ dir: s.dir }));

/**
 * Opens the log, waiting while it cannot be reached (a NATS server restarting): retries with
 * backoff (0.5 s doubling to 10 s), telling `onWait` each time. Other errors are not retried.
 * `signal` ends the wait at once (the process is told to stop): it throws the signal's reason.
 */
export const openLogPatiently = async (
  s: LogSettings,
  onWait: (message: string, nextMs: number) => void,
  signal?: AbortSignal,
): Promise<RawLog> => {
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await openLog(s);
    } catch (e) {
      if (!(e instanceof LogUnavailableError) || signal?.aborted) throw e;
      const next = Math.min(10_000, 500 * 2 ** attempt);
      onWait(e.message, next);
      await sleep(next, signal);
    }
  }
};
