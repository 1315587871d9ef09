import { ensureCurrentSet } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * `/txs/{hash}` reads a transaction's place in `tx_hash`, then its record in `tx_records`
 * (sql/011_tx_records.sql). An insert into `txs` that runs while migration 011 fills `tx_records`
 * on a live table set can leave a transaction with a place and no record there; the API then reads
 * the record from `txs`. Over the scenario's log, projected once: every transaction answers the
 * same by either of its hashes with every third record deleted from `tx_records` as without.
 */
let store: ScenarioStore;
let db: string;

const rows = async <T>(query: string) =>
  (await store.ch.query({ query: query.replaceAll("{db}", db), format: "JSONEachRow" })).json<T>();

beforeAll(async () => {
  store = await scenarioStore("api-tx-records", inject("logDir"));
  ({ db } = await ensureCurrentSet(store.ch, "set"));
  await store.project(db);
}, 300_000);

afterAll(async () => store?.close());

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
    const before = await answers(await store.api("set"));
    expect(before.every(([status]) => status === 200)).toBe(true);

    const records = async () =>
      Number((await rows<{ n: string }>("SELECT count() AS n FROM {db}.tx_records"))[0]?.n);
    const all = await records();
    const gone = (await rows<{ key: string }>("SELECT key FROM {db}.tx_records ORDER BY key"))
      .map((r) => r.key)
      .filter((_, i) => i % 3 === 0);
    expect(gone.length).toBeGreaterThan(0);
    await store.ch.command({
      query: `DELETE FROM ${db}.tx_records WHERE key IN (${gone.map((k) => `'${k}'`).join(",")})`,
    });
    const left = await records();
    expect(all - left).toBeGreaterThan(0); // the deletion removed records: the fallback is exercised
    expect(left).toBe(all - gone.length);

    expect(await answers(await store.api("set"))).toEqual(before);
  });
});
