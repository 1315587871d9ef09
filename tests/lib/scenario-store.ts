import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi, Db } from "@explorer/api";
import { type ProjectOptions, projectLog } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { openClickHouse } from "@explorer/store";
import { DEFAULT_SQL_LIMITS } from "@explorer/store/sql-sandbox";
import { Effect } from "effect";
import { listenLocal } from "./net.ts";

/** The projector's options for the scenario's chain, replaying to the end of the log. */
export const scenarioProjection = {
  prefix: "cosmos",
  nativeDenoms: ["atest"],
  batchBlocks: 50,
  batchIdleMs: 50,
  follow: false,
} satisfies ProjectOptions;

/**
 * A copy of the scenario's raw-block log (`logDir`, from the global setup) with an embedded store
 * beside it, in a directory of its own: `project` replays the copy into a table set, `api` serves a
 * table set (each API with its own answer cache, no practical rate limit unless `rateLimitPerMinute`
 * gives one; with `records`, a record cache of its own, filled before it serves) and gives its base URL.
 * `close` closes every part, whatever the others do, and removes the directory.
 */
export const scenarioStore = async (name: string, logDir: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  mkdirSync(join(dir, "log"));
  copyFileSync(join(logDir, "log.dat"), join(dir, "log", "log.dat"));
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const servers: { server: Server; dispose: () => Promise<void> }[] = [];
  return {
    ch,
    project: (db: string, o: Partial<ProjectOptions> = {}) =>
      projectLog(ch, db, log, { ...scenarioProjection, ...o }),
    api: async (base: string, o: { rateLimitPerMinute?: number; records?: boolean } = {}) => {
      const { app, runtime, records } = buildApi(ch, base, {
        prefix: "cosmos",
        nativeCoins: new Map([["test", "atest"]]),
        rateLimitPerMinute: o.rateLimitPerMinute ?? 1e9,
        apiKeys: new Map(),
        // /sql: loopback clients without a key, as under the zero-configuration `npm start`
        sql: {
          keys: new Set(),
          anonymous: "auto",
          listensOnLoopback: true,
          perMinute: 1e9,
          maxConcurrent: 2,
          limits: DEFAULT_SQL_LIMITS,
        },
        ...(o.records && { recordCacheDir: mkdtempSync(join(dir, "records-")) }),
      });
      if (records) {
        // served once its record cache holds every projected block
        const st = await runtime.runPromise(
          Effect.gen(function* () {
            return yield* (yield* Db).state;
          }),
        );
        await records.filledTo(st.db, st.height);
      }
      const { server, port } = await listenLocal(app);
      servers.push({ server, dispose: () => runtime.dispose() });
      return `http://127.0.0.1:${port}/api/1.0`;
    },
    close: async () => {
      await Promise.allSettled(
        servers.map(async (s) => {
          await new Promise((r) => s.server.close(r));
          await s.dispose();
        }),
      );
      await Promise.allSettled([ch.close(), log.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type ScenarioStore = Awaited<ReturnType<typeof scenarioStore>>;
