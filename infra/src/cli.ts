#!/usr/bin/env -S node --import tsx
import {
  chainStart,
  chainStop,
  ensureEvmd,
  ensureNatsServer,
  natsStart,
  natsStop,
} from "./index.ts";

const usage = `usage: explorer-infra <command>
  evmd build     build (or reuse) the evmd binary from the Go module proxy
  nats build     build (or reuse) nats-server from the Go module proxy
  chain start    initialise (first time) and start the reference chain on loopback
  chain stop     stop the reference chain and remove its data
  nats start     start nats-server with JetStream on loopback
  nats stop      stop nats-server and remove its data
Environment: EXPLORER_CACHE_DIR (built tools), EXPLORER_RUN_DIR (chain and NATS data).`;

const commands: Record<string, () => Promise<unknown>> = {
  "evmd build": async () => console.log(ensureEvmd()),
  "nats build": async () => console.log(ensureNatsServer()),
  "chain start": chainStart,
  "chain stop": chainStop,
  "nats start": natsStart,
  "nats stop": natsStop,
};

const cmd = commands[process.argv.slice(2, 4).join(" ")];
if (!cmd) {
  console.error(usage);
  process.exit(2);
}
cmd().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
