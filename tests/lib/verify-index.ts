import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiSettings, buildApi, Db, makeVerification } from "@explorer/api";
import { openCurrentSet, projectLog } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { openClickHouse } from "@explorer/store";
import { Verifier, type VerifierOptions } from "@explorer/verifier";
import { Effect } from "effect";
import { listenLocal } from "./net.ts";

/**
 * An index that can record verifications, as `npm start` runs it: a copy of a raw-block log
 * (this process owns it), chDB in a temp directory, the projector following the log in-process,
 * and the API recording verifications into the log.
 */
export const startVerifyIndex = async (
  logDir: string,
  /** Wait until this height is projected (default: the log's last block). */
  untilHeight: number | undefined,
  settings: ApiSettings,
  verifierOptions: VerifierOptions = {},
) => {
  const dir = mkdtempSync(join(tmpdir(), "verify-index-"));
  mkdirSync(join(dir, "log"));
  copyFileSync(join(logDir, "log.dat"), join(dir, "log", "log.dat"));
  const log = EmbeddedLog.open({ dir: join(dir, "log") });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const { db } = await openCurrentSet(ch, "explorer");
  const stop = new AbortController();
  let projected = 0;
  const following = projectLog(ch, db, log, {
    prefix: settings.prefix,
    nativeDenoms: ["atest"],
    batchBlocks: 500,
    batchIdleMs: 50,
    follow: true,
    signal: stop.signal,
    onProjected: (p) => {
      projected = p.height;
    },
  }).catch((e) => {
    if (!stop.signal.aborted) throw e;
  });
  const until = untilHeight ?? (await log.lastHeight()) ?? 0;
  while (projected < until) await new Promise((r) => setTimeout(r, 100));
  const verifier = new Verifier(verifierOptions);
  const { app, runtime, records } = buildApi(
    ch,
    "explorer",
    settings,
    makeVerification({ verifier, log, chainId: "evmd-local-1", evmChainId: 262144 }),
  );
  await records?.filledTo(db, until); // with a record cache: served once it holds the blocks
  const { server, port } = await listenLocal(app);
  return {
    base: `http://127.0.0.1:${port}`,
    ch,
    log,
    verifier,
    server: server as Server,
    /** The directory of the index's own copy of the log (verifications are appended there). */
    logDir: join(dir, "log"),
    /** The API's view of the store, read again now (the set it serves and its height). */
    apiState: () =>
      runtime.runPromise(
        Effect.gen(function* () {
          return yield* (yield* Db).refresh;
        }),
      ),
    /** Stops following the log (e.g. before a re-index), keeping the API up. */
    stopProjector: async () => {
      stop.abort();
      await following;
    },
    close: async () => {
      stop.abort();
      await following;
      await new Promise((r) => server.close(r));
      await runtime.dispose();
      await log.close();
      await ch.close();
    },
  };
};
