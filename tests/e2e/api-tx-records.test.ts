import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ClickHouseClient } from "@clickhouse/client";
import { buildApi } from "@explorer/api";
import { projectLog } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listenLocal } from "../lib/net.ts";

/**
 * `/txs/{hash}` reads a transaction's place in `tx_hash`, then its record in `tx_records`
 * (sql/011_tx_records.sql). An insert into `txs` that runs while migration 011 fills `tx_records`
 * on a live table set can leave a transaction with a place and no record there; the API then reads
 * the record from `txs`. Over the scenario's log, projected once: every transaction answers the
 * same by either of its hashes with every third record deleted from `tx_records` as without.
 */
const settings = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 1e9,
  apiKeys: new Map(),
};
let ch: ClickHouseClient;
let db: string;
let dir: string;
let log: EmbeddedLog;
const servers: { server: Server; dispose: () => Promise<void> }[] = [];

/** An API on the table set with an answer cache of its own. */
const api = async () => {
  const { app, runtime } = buildApi(ch, "set", settings);
  const { server, port } = await listenLocal(app);
  servers.push({ server, dispose: () => runtime.dispose() });
  return `http://127.0.0.1:${port}/api/1.0`;
};

const rows = async <T>(query: string) =>
  (await ch.query({ query: query.replaceAll("{db}", db), format: "JSONEachRow" })).json<T>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "api-tx-records-"));
  mkdirSync(join(dir, "log"));
  copyFileSync(join(inject("logDir"), "log.dat"), join(dir, "log", "log.dat"));
  log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  ({ db } = await ensureCurrentSet(ch, "set"));
  await projectLog(ch, db, log, {
    prefix: "cosmos",
    nativeDenoms: ["atest"],
    batchBlocks: 50,
    batchIdleMs: 50,
    follow: false,
  });
}, 300_000);

afterAll(async () => {
  // Each step whatever the others did: nothing left open or on disk.
  await Promise.allSettled(
    servers.map(async (s) => {
      await new Promise((r) => s.server.close(r));
      await s.dispose();
    }),
  );
  await Promise.allSettled([ch?.close(), log?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("transactions by hash", () => {
  it("answer from txs where tx_records lacks their record", async () => {
    const keys = await rows<{ key: string }>("SELECT key FROM {db}.tx_hash ORDER BY key");
    expect(keys.length).toBeGreaterThan(50);
    const hashes = keys.map((k) => k.key.slice(2)); // `h:TXHASH` or `e:0xhash`
    const answers = async (base: string) =>
      Promise.all(
        hashes.map(async (h) => {
          const r = await fetch(`${base}/txs/${h}`);
          return [r.status, await r.text()] as const;
        }),
      );
    const before = await answers(await api());
    expect(before.every(([status]) => status === 200)).toBe(true);

    const records = async () =>
      Number((await rows<{ n: string }>("SELECT count() AS n FROM {db}.tx_records"))[0]?.n);
    const all = await records();
    const gone = (await rows<{ key: string }>("SELECT key FROM {db}.tx_records ORDER BY key"))
      .map((r) => r.key)
      .filter((_, i) => i % 3 === 0);
    await ch.command({
      query: `DELETE FROM ${db}.tx_records WHERE key IN (${gone.map((k) => `'${k}'`).join(",")})`,
    });
    expect(await records()).toBe(all - gone.length);

    expect(await answers(await api())).toEqual(before);
  });
});
