import { isRetryable, messageOf } from "@explorer/service/errors";
import { Duration, Effect, Schedule } from "effect";
import { EmbeddedLog } from "./embedded.ts";
import { NatsLog } from "./nats.ts";
import type { RawLog } from "./port.ts";

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
 * Opens the log, waiting while it cannot be reached (a NATS server restarting): retries what is
 * retryable (isRetryable: LogUnavailableError) with backoff (0.5 s doubling to 10 s), telling
 * `onWait` each time. Other errors are not retried. `signal` ends the wait at once (the process is
 * told to stop): it throws the signal's reason.
 */
export const openLogPatiently = (
  s: LogSettings,
  onWait: (message: string, nextMs: number) => void,
  signal?: AbortSignal,
): Promise<RawLog> =>
  Effect.runPromise(
    Effect.tryPromise({ try: () => openLog(s), catch: (e) => e }).pipe(
      Effect.retry(
        Schedule.min([Schedule.exponential("500 millis"), Schedule.spaced("10 seconds")]).pipe(
          Schedule.setInputType<unknown>(),
          Schedule.while(({ input }) => isRetryable(input)),
          Schedule.tap(({ input, duration }) =>
            Effect.sync(() => onWait(messageOf(input), Duration.toMillis(duration))),
          ),
        ),
      ),
    ),
    signal && { signal },
  ).catch((e: unknown) => {
    signal?.throwIfAborted();
    throw e;
  });
