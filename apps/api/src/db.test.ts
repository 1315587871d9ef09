import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCurrentSet, openClickHouse } from "@explorer/store";
import { Effect } from "effect";
import { afterAll, describe, expect, it } from "vitest";
import { makeDb } from "./db.ts";

const ch = await openClickHouse({ kind: "chdb", path: mkdtempSync(join(tmpdir(), "api-db-")) });
const { db } = await ensureCurrentSet(ch, "explorer");
afterAll(() => ch.close());

const verifiedRow = (match: "full" | "partial") => ({
  address: "0x00000000000000000000000000000000000000aa",
  contract_name: "A",
  match,
  verified_at: "2026-01-01 00:00:00.000",
  height: 5,
});

describe("store state", () => {
  it("the verification count, which keys cached answers, grows when a full match replaces a partial one and does not fall back when the rows merge", async () => {
    const store = makeDb(ch, "explorer", 0);
    const verified = async () => (await Effect.runPromise(store.refresh)).verified;
    const seen = [await verified()];
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("partial")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("full")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    await ch.command({ query: `OPTIMIZE TABLE ${db}.verified_contracts FINAL` });
    seen.push(await verified());
    // A replay inserting the same rows again changes nothing.
    await ch.insert({
      table: `${db}.verified_contracts`,
      values: [verifiedRow("partial"), verifiedRow("full")],
      format: "JSONEachRow",
    });
    seen.push(await verified());
    expect(seen[0]).toBe(0);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(seen[2]).toBeGreaterThan(seen[1]!);
    expect(seen.slice(3)).toEqual([seen[2], seen[2]]);
  });
});
