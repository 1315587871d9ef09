import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApi } from "@explorer/api";
import { keyFromMnemonic } from "@explorer/chain";
import { testAccounts } from "@explorer/infra";
import { projectLog } from "@explorer/projector";
import { EmbeddedLog } from "@explorer/raw-log";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listenLocal } from "../lib/net.ts";

/**
 * Lists filtered through an index (`/txs?address=`, `/token-transfers?address=`,
 * `/event-logs?contractAddress=`) cut their pages from the index itself (apps/api/src/http/
 * lookup-page.ts). Over the scenario's log projected once, and again into a second table set
 * replayed a second time with merges stopped (so every index entry is there twice), every page,
 * both ways, is the same, and the pages together hold each record once.
 */
const scenario = inject("scenario");
const alice = keyFromMnemonic(testAccounts.alice.mnemonic, "cosmos");
const settings = {
  prefix: "cosmos",
  nativeCoins: new Map([["test", "atest"]]),
  rateLimitPerMinute: 1e9,
  apiKeys: new Map(),
};
const options = {
  prefix: "cosmos",
  nativeDenoms: ["atest"],
  batchBlocks: 50,
  batchIdleMs: 50,
  follow: false,
};
let close: () => Promise<void>;
const bases: Record<"once" | "twice", string> = { once: "", twice: "" };
const duplicated: Record<string, number> = {};
/** Rows of a query on the once-projected set (`{db}`), read from the tables with FINAL. */
let count: (sql: string) => Promise<number>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "api-pages-"));
  mkdirSync(join(dir, "log"));
  copyFileSync(join(inject("logDir"), "log.dat"), join(dir, "log", "log.dat"));
  const log = EmbeddedLog.open({ dir: join(dir, "log"), sync: false });
  const ch = await openClickHouse({ kind: "chdb", path: join(dir, "chdb") });
  const once = await ensureCurrentSet(ch, "once");
  await projectLog(ch, once.db, log, options);
  const twice = await ensureCurrentSet(ch, "twice");
  await projectLog(ch, twice.db, log, options);
  const lookups = ["tx_lookup", "log_lookup", "transfer_lookup"];
  for (const t of lookups) await ch.command({ query: `SYSTEM STOP MERGES ${twice.db}.${t}` });
  await projectLog(ch, twice.db, log, { ...options, fromStart: true });
  for (const t of lookups) {
    const rs = await ch.query({
      query: `SELECT (SELECT count() FROM ${twice.db}.${t}) - (SELECT count() FROM ${twice.db}.${t} FINAL) AS n`,
      format: "JSONEachRow",
    });
    duplicated[t] = Number((await rs.json<{ n: string }>())[0]?.n);
  }
  count = async (sql) => {
    const rs = await ch.query({ query: sql.replaceAll("{db}", once.db), format: "JSONEachRow" });
    return Number((await rs.json<{ n: string }>())[0]?.n);
  };
  const servers: { server: Server; dispose: () => Promise<void> }[] = [];
  for (const name of ["once", "twice"] as const) {
    const { app, runtime } = buildApi(ch, name, settings);
    const { server, port } = await listenLocal(app);
    bases[name] = `http://127.0.0.1:${port}/api/1.0`;
    servers.push({ server, dispose: () => runtime.dispose() });
  }
  close = async () => {
    for (const s of servers) {
      await new Promise((r) => s.server.close(r));
      await s.dispose();
    }
    await ch.close();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 300_000);

afterAll(async () => close?.());

/** Every page of a list at `limit` a page, until hasNext is false. */
const walk = async (base: string, path: string, limit: number) => {
  const pages: { docs: unknown[]; hasNext: boolean }[] = [];
  for (let page = 1; page <= 500; page++) {
    const r = await fetch(`${base}${path}&limit=${limit}&page=${page}`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { docs: unknown[]; hasNext: boolean };
    pages.push(body);
    if (!body.hasNext) return pages;
  }
  throw new Error(`${path}: more than 500 pages`);
};

describe("pages cut from an index", () => {
  it("the replayed table set really holds every index entry twice", () => {
    for (const t of ["tx_lookup", "log_lookup", "transfer_lookup"])
      expect(duplicated[t], t).toBeGreaterThan(0);
  });

  const evm = alice.evm.toLowerCase();
  const token = scenario.contracts.TestToken!.toLowerCase();
  const txs = `/txs?address=${alice.bech32}`;
  const transfers = `/token-transfers?address=${evm}`;
  const logs = `/event-logs?contractAddress=${token}`;
  // Each list, a sort, a record's identity, and its rows counted in the table itself (FINAL).
  const lists: [string, string, (d: any) => string, string][] = [];
  for (const [path, field, id, sql] of [
    [
      txs,
      "height",
      (d: any) => d.txhash,
      `SELECT count() AS n FROM {db}.txs FINAL WHERE has(addresses, '${evm}')`,
    ],
    [
      transfers,
      "blockNumber",
      (d: any) => d.uniqueHash,
      `SELECT count() AS n FROM {db}.token_transfers FINAL WHERE from_address = '${evm}' OR to_address = '${evm}'`,
    ],
    [
      logs,
      "blockNumber",
      (d: any) => `${d.transactionHash}/${d.logIndex}`,
      `SELECT count() AS n FROM {db}.event_logs FINAL WHERE contract = '${token}'`,
    ],
  ] as const)
    for (const sort of [`-${field}`, field]) lists.push([path, sort, id, sql]);

  it.each(lists)(
    "%s sorted %s: the same pages after a replay, each record once, all of them",
    async (path, sort, id, sql) => {
      const once = await walk(bases.once, `${path}&sort=${sort}`, 2);
      const twice = await walk(bases.twice, `${path}&sort=${sort}`, 2);
      expect(twice).toEqual(once);
      const docs = once.flatMap((p) => p.docs);
      expect(docs.length).toBeGreaterThan(2);
      expect(new Set(docs.map(id)).size).toBe(docs.length);
      expect(docs.length).toBe(await count(sql));
    },
  );
});
