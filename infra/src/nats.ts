import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { join } from "node:path";
import { runDir } from "./cache.ts";
import { readPid, startDetached, stopProcess, waitFor } from "./proc.ts";
import { ensureNatsServer } from "./tools.ts";

export const natsPorts = {
  client: Number(process.env.EXPLORER_NATS_PORT ?? 4222),
  monitor: Number(process.env.EXPLORER_NATS_MONITOR_PORT ?? 8222),
};
export const natsUrl = (): string => `nats://127.0.0.1:${natsPorts.client}`;

const dir = (): string => join(runDir(), "nats");
const files = () => ({ log: join(dir(), "nats.log"), pid: join(dir(), "nats.pid") });

/**
 * JetStream with file storage, loopback only. max_payload is raised from 1 MiB to 8 MiB so that
 * large RawBlocks fit in one message (the ingester also compresses them).
 */
export const natsConfig = (storeDir: string): string => `
listen: 127.0.0.1:${natsPorts.client}
http: 127.0.0.1:${natsPorts.monitor}
max_payload: 8MB
jetstream {
  store_dir: ${JSON.stringify(storeDir)}
  max_memory_store: 256MB
  max_file_store: 20GB
}
`;

const portOpen = (port: number) =>
  new Promise<boolean | undefined>((resolve) => {
    const s = createConnection({ host: "127.0.0.1", port }, () => {
      s.end();
      resolve(true);
    });
    s.on("error", () => resolve(undefined));
  });

export const isNatsRunning = (): boolean => readPid(files().pid) !== undefined;

/** Starts nats-server with JetStream (building it on first use). Idempotent. */
export const natsStart = async (): Promise<string> => {
  const bin = ensureNatsServer();
  if (!isNatsRunning()) {
    mkdirSync(join(dir(), "store"), { recursive: true });
    const conf = join(dir(), "nats.conf");
    writeFileSync(conf, natsConfig(join(dir(), "store")));
    startDetached(bin, ["-c", conf], files());
    await waitFor(
      `nats-server on port ${natsPorts.client} (see ${files().log})`,
      () => portOpen(natsPorts.client),
      30_000,
    );
  }
  process.stderr.write(
    `[nats] up at ${natsUrl()} (JetStream, monitor http://127.0.0.1:${natsPorts.monitor})\n`,
  );
  return natsUrl();
};

/** Stops nats-server and starts it again on the same data (streams survive): a restart, as in an outage. */
export const natsRestart = async (downMs = 0): Promise<string> => {
  const pid = readPid(files().pid);
  if (pid !== undefined) await stopProcess(pid);
  if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
  return natsStart();
};

/** Stops nats-server and removes its data. */
export const natsStop = async (): Promise<void> => {
  const pid = readPid(files().pid);
  if (pid !== undefined) await stopProcess(pid);
  rmSync(dir(), { recursive: true, force: true });
  process.stderr.write("[nats] stopped; data removed\n");
};
