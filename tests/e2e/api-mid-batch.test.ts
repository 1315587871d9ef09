import { ensureCurrentSet } from "@explorer/store";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ScenarioStore, scenarioStore } from "../lib/scenario-store.ts";

/**
 * The API answers up to the height the projector has published ("projected up to H", its progress
 * row), never past it, though the next batch's rows may already be in the tables while it is being
 * written. Emulated on the scenario's log projected to its end, with the progress row then set
 * back to an earlier height `h0`: every block and tx above h0 is in the tables, and none may show,
 * from an API reading every record from the store or one keeping them in its record cache.
 */
const scenario = inject("scenario");
let store: ScenarioStore;
/** The API reading every record from the store, and one with a record cache (filled to h0). */
const bases = { store: "", "record cache": "" };
let base = "";
/** Published height, and a scenario tx (and its height) above it. */
let h0 = 0;
let later: { hash: string; height: number };
/** The table set's database. */
let db = "";

const get = async (path: string) => {
  const r = await fetch(`${base}${path}`);
  return { status: r.status, body: (await r.json()) as any };
};

beforeAll(async () => {
  store = await scenarioStore("api-mid-batch", inject("logDir"));
  const { ch } = store;
  db = (await ensureCurrentSet(ch, "mid")).db;
  await store.project(db);
  later = scenario.sent.at(-1)!;
  h0 = later.height - 3;
  const rs = await ch.query({
    query: `SELECT toString(txs_before + tx_count) AS t FROM ${db}.blocks FINAL WHERE height = ${h0}`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ t: string }>();
  await ch.command({
    query: `ALTER TABLE ${db}.progress DELETE WHERE name = 'projector' SETTINGS mutations_sync = 2`,
  });
  await ch.command({
    query: `INSERT INTO ${db}.progress VALUES ('projector', ${h0}, ${row!.t})`,
  });
  bases.store = await store.api("mid");
  bases["record cache"] = await store.api("mid", { records: true });
}, 300_000);

afterAll(async () => store?.close());

describe.each(Object.keys(bases) as (keyof typeof bases)[])(
  "nothing past the published height, records from the %s",
  (via) => {
    beforeAll(() => {
      base = bases[via];
    });

    it("the tables do hold the later blocks (else this test proves nothing)", async () => {
      const rs = await store.ch.query({
        query: `SELECT count() AS n FROM ${db}.blocks WHERE height > ${h0}`,
        format: "JSONEachRow",
      });
      expect(Number((await rs.json<{ n: string }>())[0]!.n)).toBeGreaterThanOrEqual(3);
    });

    it("blocks: latest, by height, a height filter above it is an empty page", async () => {
      expect((await get("/blocks/latest")).body.height).toBe(h0);
      expect((await get(`/blocks/${h0}`)).body.height).toBe(h0);
      expect((await get(`/blocks/${h0 + 1}`)).status).toBe(404);
      expect((await get(`/blocks?height=${h0}`)).body.docs.map((b: any) => b.height)).toEqual([h0]);
      for (const h of [h0 + 1, later.height, later.height + 1000]) {
        const { status, body } = await get(`/blocks?height=${h}`);
        expect(status, `height=${h}`).toBe(200);
        expect(body, `height=${h}`).toMatchObject({ docs: [], hasNext: false });
      }
      const first = (await get("/blocks?limit=5")).body.docs.map((b: any) => b.height);
      expect(first).toEqual([h0, h0 - 1, h0 - 2, h0 - 3, h0 - 4]);
      expect((await get(`/blocks?from_height=${h0 + 1}`)).body.docs).toEqual([]);
    });

    it("search finds a block by its hashes only up to it", async () => {
      const rs = await store.ch.query({
        query: `SELECT height, block_hash AS cosmos, JSONExtractString(record, 'evm', 'hash') AS evm FROM ${db}.blocks FINAL WHERE height IN (${h0}, ${h0 + 1}) ORDER BY height`,
        format: "JSONEachRow",
      });
      const [at, above] = await rs.json<{ cosmos: string; evm: string }>();
      for (const hash of [at!.cosmos, at!.evm]) {
        const { status, body } = await get(`/search?value=${hash}`);
        expect([hash, status, body.kind, body.record?.height]).toEqual([hash, 200, "block", h0]);
      }
      for (const hash of [above!.cosmos, above!.evm])
        expect([hash, (await get(`/search?value=${hash}`)).status]).toEqual([hash, 404]);
    });

    it("transactions, logs, transfers and stat stop at it too", async () => {
      expect((await get(`/txs/${later.hash}`)).status).toBe(404);
      expect((await get(`/txs?txhash=${later.hash}`)).body.docs).toEqual([]);
      expect((await get(`/txs?height=${later.height}`)).body.docs).toEqual([]);
      const heights = [
        ...(await get("/txs?limit=100")).body.docs.map((t: any) => t.height),
        ...(await get("/event-logs?limit=100")).body.docs.map((l: any) => l.blockNumber),
        ...(await get("/token-transfers?limit=100")).body.docs.map((t: any) => t.blockNumber),
      ];
      expect(heights.length).toBeGreaterThan(0);
      expect(Math.max(...heights)).toBeLessThanOrEqual(h0);
      expect((await get("/stat")).body.totalBlocks).toBe(h0);
    });

    it("so do the counts of a validator's signatures and of a token's transfers", async () => {
      const rows = async <T>(query: string) =>
        (await store.ch.query({ query, format: "JSONEachRow" })).json<T>();
      const counts = await rows<{ operator: string; yes: string; no: string; above: string }>(
        `SELECT v.operator_address AS operator, countIf(s.height <= ${h0} AND s.signed = 1) AS yes, countIf(s.height <= ${h0} AND s.signed = 0) AS no, countIf(s.height > ${h0}) AS above
       FROM ${db}.validators AS v FINAL JOIN ${db}.validator_signatures AS s FINAL ON s.cons_address = v.cons_address GROUP BY operator ORDER BY operator`,
      );
      expect(counts.some((c) => Number(c.above) > 0)).toBe(true); // else this proves nothing
      const answered = (await get("/validators?sort=operator_address&limit=100")).body.docs;
      expect(
        answered
          .filter((v: any) => counts.some((c) => c.operator === v.validator.operator_address))
          .map((v: any) => [v.validator.operator_address, v.signedBlocks, v.unsignedBlocks]),
      ).toEqual(counts.map((c) => [c.operator, Number(c.yes), Number(c.no)]));
      const [c] = await rows<{ contract: string; at: string }>(
        `SELECT contract, countIf(block_number <= ${h0}) AS at FROM ${db}.token_transfers FINAL GROUP BY contract ORDER BY count() - at DESC, contract LIMIT 1`,
      );
      expect((await get(`/tokens/${c!.contract}`)).body.transferCount).toBe(Number(c!.at));
    });
  },
);
