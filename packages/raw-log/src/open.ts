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
