import { ensureCurrentSet } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * `/blocks/{height}` reads `block_records` (sql/014_block_records.sql). An insert into `blocks`
 * that runs while its migration fills the key-value table on a live table set can leave a record
 * out of it; the API then reads the record from `blocks`. Over the scenario's log, projected once:
 * every block answers the same with every third record deleted from the key-value table as
 * without. (`/txs/{hash}` reads `tx_hash`, then `txs`: sql/022_drop_tx_records.sql.)
 */
let store: ScenarioStore;
let db: string;

const rows = async <T>(query: string) =>
  (await store.ch.query({ query: query.replaceAll("{db}", db), format: "JSONEachRow" })).json<T>();

beforeAll(async () => {
  store = await scenarioStore("api-point-records", inject("logDir"));
  ({ db } = await ensureCurrentSet(store.ch, "set"));
  await store.project(db);
}, 300_000);

afterAll(async () => store?.close());

/** Each path's status and body, asked of a fresh API (no answer cached). */
const answers = async (paths: readonly string[]) => {
  const base = await store.api("set");
  return Promise.all(
    paths.map(async (p) => {
      const r = await fetch(`${base}${p}`);
      return [r.status, await r.text()] as const;
    }),
  );
};

/** Deletes every third row of key-value table `table` and checks that rows went. */
const deleteEveryThird = async (table: string) => {
  const records = async () =>
    Number((await rows<{ n: string }>(`SELECT count() AS n FROM {db}.${table}`))[0]?.n);
  const all = await records();
  const gone = (await rows<{ key: string }>(`SELECT key FROM {db}.${table} ORDER BY key`))
    .map((r) => r.key)
    .filter((_, i) => i % 3 === 0);
  expect(gone.length).toBeGreaterThan(0);
  await store.ch.command({
    query: `DELETE FROM ${db}.${table} WHERE key IN (${gone.map((k) => `'${k}'`).join(",")})`,
  });
  const left = await records();
  expect(all - left).toBeGreaterThan(0); // the deletion removed records: the fallback is exercised
  expect(left).toBe(all - gone.length);
};

describe("point reads from key-value tables", () => {
  it("blocks by height answer from blocks where block_records lacks their record", async () => {
    const heights = await rows<{ height: string }>(
      "SELECT DISTINCT height FROM {db}.blocks ORDER BY height",
    );
    expect(heights.length).toBeGreaterThan(50);
    const keyed = await rows<{ key: string }>("SELECT key FROM {db}.block_records ORDER BY key");
    expect(keyed.map((k) => Number(k.key))).toEqual(heights.map((h) => Number(h.height)));
    const paths = [...heights.map((h) => `/blocks/${h.height}`), "/blocks/latest"];
    const before = await answers(paths);
    expect(before.every(([status]) => status === 200)).toBe(true);
    await deleteEveryThird("block_records");
    expect(await answers(paths)).toEqual(before);
  });
});
