import type { Settings } from "@explorer/service";
import type { SettingKey } from "@explorer/service/settings";
import type { Effect } from "effect";
import {
  apiOptions,
  commonOptions,
  ingestOptions,
  migrateOptions,
  type Option,
  projectOptions,
  recordOptions,
  reindexOptions,
  sqlOptions,
  startOptions,
} from "./options.ts";

export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Longer explanation shown by `explorer <command> --help`. */
  readonly details: string;
  readonly options: readonly Option[];
  /** The setting the command's one bare word gives (one of its options). */
  readonly positional?: SettingKey;
  /** The program, loaded only when the command runs (so `--help` answers at once). */
  readonly load: () => Promise<Effect.Effect<unknown, unknown, Settings>>;
}

const withCommon = (options: readonly Option[]) => [...options, ...commonOptions];

export const COMMANDS: readonly Command[] = [
  {
    name: "start",
    summary: "everything in one process: ingester (with a node), projector, API (embedded mode)",
    details:
      "Runs the raw-block log and ClickHouse (chDB) in-process under --data-dir. Without --comet-rpc it serves the bundled sample chain; its last --replay-blocks blocks are replayed at their recorded pace on a fresh data directory, so the stream shows new blocks.",
    options: withCommon(startOptions),
    load: async () => (await import("../start.ts")).startProgram,
  },
  {
    name: "ingest",
    summary: "follow a node and write one RawBlock per height to the raw-block log",
    details:
      "Reads blocks, results, receipts, traces and the state they touched from the node's CometBFT RPC, Cosmos REST and EVM JSON-RPC, and appends them in height order to the log (a file, or NATS JetStream with --log nats). Resumes after the log's last height.",
    options: withCommon(ingestOptions),
    load: async () => (await import("./programs.ts")).ingestProgram,
  },
  {
    name: "project",
    summary: "replay the raw-block log into the ClickHouse tables and keep following it",
    details:
      "Applies heights in order in batches; replays are idempotent. With --log nats it also publishes 'projected up to H' for the API instances' streams.",
    options: withCommon(projectOptions),
    load: async () => (await import("./programs.ts")).projectProgram,
  },
  {
    name: "api",
    summary: "serve the REST API, the Socket.IO stream and the docs page from the tables",
    details:
      "Stateless: run as many as needed behind a load balancer; with --log nats they share the stream's 'projected' events (--nats). /health and /ready answer on the same port.",
    options: withCommon(apiOptions),
    load: async () => (await import("./programs.ts")).apiProgram,
  },
  {
    name: "reindex",
    summary: "replay the whole log into a new table set, then switch to it atomically",
    details:
      "The API keeps answering from the current set during the replay; progress is shown on a terminal. Use it after a change of projection logic.",
    options: withCommon(reindexOptions),
    load: async () => (await import("./programs.ts")).reindexProgram,
  },
  {
    name: "migrate",
    summary: "create the current table set if needed and apply the migrations it lacks",
    details:
      "The projector, reindex and start migrate on their own, and so does the API on a chDB directory; on a ClickHouse server the API does not (a migration beside a projector writing could lose rows): it waits until the projector or this command has migrated the set. Run one migrating process at a time; run this to prepare a server before the apps start.",
    options: withCommon(migrateOptions),
    load: async () => (await import("./programs.ts")).migrateProgram,
  },
  {
    name: "record",
    summary: "capture a sample chain from a node into a log file that `start` can serve",
    details:
      "Ingests heights --start-height … --stop-height (default: the node's head when recording starts) into a fresh embedded log and writes it to --out. Serve it with `explorer start` after copying it to samples/reference-chain/log.dat, or into <data-dir>/log/log.dat.",
    options: withCommon(recordOptions),
    load: async () => (await import("./record.ts")).recordProgram,
  },
  {
    name: "sql",
    summary: 'run one read-only SQL query: explorer sql "SELECT … FROM explorer.blocks"',
    details:
      "Against a running service (--api http://127.0.0.1:3000, with --api-key for a key with the sql scope), or straight on --store when no process holds it. The same sandbox and limits as /api/1.0/sql (docs/sql.md). --output table (default), csv or json.",
    options: withCommon(sqlOptions),
    positional: "sqlQuery",
    load: async () => (await import("./sql.ts")).sqlProgram,
  },
];
