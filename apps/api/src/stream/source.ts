import { EventEmitter } from "node:events";
import { projectedSubject } from "@explorer/raw-log";
import { connect, type NatsConnection } from "@nats-io/transport-node";

/** Where the stream learns that blocks up to H are fully projected. */
export interface ProjectedSource {
  subscribe(listener: (height: number) => void): () => void;
  close(): Promise<void>;
}

/** In one process (embedded mode): the projector announces, the stream listens. */
export const inProcessSource = () => {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    announce: (height: number) => events.emit("projected", height),
    subscribe: (l: (h: number) => void) => {
      events.on("projected", l);
      return () => events.off("projected", l);
    },
    close: async () => {},
  };
};

/** Several API instances: every instance subscribes to the projectors' NATS subject. */
export const natsSource = async (servers: string, chainId: string): Promise<ProjectedSource> => {
  const nc: NatsConnection = await connect({
    servers,
    name: "explorer-api-stream",
    maxReconnectAttempts: -1,
  });
  return {
    subscribe: (l) => {
      const sub = nc.subscribe(projectedSubject(chainId), {
        callback: (err, msg) => {
          if (err) return;
          // A message that is not JSON must not end the subscription's reader (nats.js does not
          // catch a callback's throw); the hub ignores a height that is not one.
          let height = Number.NaN;
          try {
            height = Number((JSON.parse(msg.string()) as { height?: unknown })?.height);
          } catch {}
          l(height);
        },
      });
      return () => sub.unsubscribe();
    },
    close: () => nc.drain(),
  };
};

/** No bus (an API over a ClickHouse server without NATS): read the projected height every interval. */
export const pollingSource = (read: () => Promise<number>, intervalMs = 500): ProjectedSource => {
  const listeners = new Set<(h: number) => void>();
  let last = -1;
  const timer = setInterval(() => {
    read().then(
      (h) => {
        if (h !== last) {
          last = h;
          for (const l of listeners) l(h);
        }
      },
      () => {},
    );
  }, intervalMs);
  timer.unref();
  return {
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => clearInterval(timer),
  };
};
