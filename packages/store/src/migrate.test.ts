import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openClickHouse } from "./client.ts";
import { expandMigration, loadMigrations, MigrationError, migrate } from "./migrate.ts";
import { awaitMigratedSet, currentSet, ensureCurrentSet, switchSet } from "./table-sets.ts";

const ch = await openClickHouse({
  kind: "chdb",
  path: mkdtempSync(join(tmpdir(), "chdb-migrate-")),
});
afterAll(() => ch.close());

/**
 * The checksum each migration had when released, which stores recorded when they applied it: a
 * migration that changes is refused by every store that has it (add a new one instead). Its
 * shorthands (REBUILD, REPEAT) are written out before the checksum is taken, so a file rewritten
 * with them must still give these. Add a migration here once it is released.
 */
const RELEASED: Record<string, string> = {
  "001_chain.sql": "6b18e0f41ae3be6214b935aa2a2dbc2c4409b58413d55fd91794cb11bc22ba4b",
  "002_accounts.sql": "1f8a361dafb5ad21794d23dca5a70ad6f2dbd3f564bb5f105cf3564340f676a4",
  "003_evm.sql": "a87014835411383255d48172882a11c374184e8cc6ac0822850ad64ac174bf20",
  "004_verification.sql": "2aebd5e7bdac8aa79d3099abc532c72cd6a5e86d9302a897fe6b7d1845d7d4e5",
  "005_lookup_views.sql": "8aa5c4609843b3cde478b6836038550ff39d958422e6c9284e3603a321d3a137",
  "006_small_granules.sql": "5d404134aaddcd6c506d412c9c19ae155ebaa711e78cde9a4962e677794817e7",
  "007_point_granules.sql": "1368745a4eef63bd0304027d953ef83986126a8a1a811b763925c6cf9eee6ea4",
  "008_tx_hash.sql": "1c3f6be60e0b9964c6a21c2221b2dcf97e3a718950119991fe7938680b54c829",
  "009_txs_granules.sql": "9976564408fbb4d3da2014f1fc060605f4e44208943b64565ed52704b5588db2",
  "010_tx_lookup_without_hashes.sql":
    "81c8ec9e447985f36a3660f3f3db986079a545f7326c9d8ed8b8dd1e99436f66",
  "011_tx_records.sql": "c0fb163bbf2c7925f6df51b196a02f6a3431d54d3a004c3b4f7c97d9494876a9",
  "012_validator_commission.sql":
    "8e5d771e2f138b77ab89d623e25ab1daf2b3c26b2823e8e8ff6ef9d39273356b",
  "013_verified_full_match.sql": "580ca65a5abdfb34c294c09ccf2e537cc54b0b3fbdd0c3081c9c569bd48d1bcd",
  "014_block_records.sql": "5decc2749505c2bde521f6536e0e8f3834c197befb1d1f47a678453c70719d9b",
  "015_analytics.sql": "e5d66aafdc851c438cd6c3551d52bee76491dc39de4782491acdfd92622e166d",
  "017_internal_txs.sql": "0c54099cca731942c840c9d09de0f82a00fcb7ba9d5d6f7fb55f1a709f0558b3",
  "018_token_meta.sql": "59174b3284237f48fd393ce27e3db513476bcacf971a0110f99823a6e0b00be0",
  "019_evm_txs.sql": "ff254345ac04e27f8f45a79063aabb1d9cbaacc994b3be27bb8d0c33d3bdd99e",
  "020_history.sql": "222e827b25399796794a962e459bcbbe43bdb96c2a8b687862845078faacef9e",
  "021_day_stats.sql": "352af9e8944902cd0a840c61ba99b5ecc6dba82b876e6d4627bf6a2cb2638da6",
  "022_drop_tx_records.sql": "ec6ab79b0721944fc0271937d95da643fa53995ab0d8c93c0bd2d9ecfd2c5464",
  "023_transfer_standard_keys.sql":
    "42affff8ae7cf05bbbed6804bffe695a4344a31b82fb9c9bb8ba35345698fc47",
  "024_account_stats.sql": "7980ee7725a133b9818ff2c30cbdf42fce1da5c15fc59c76ac20e415a4d5e47b",
  "025_typed_stats.sql": "40545032c77692d74a750648ef61119e06fb901508108ea505677ac8990c161e",
  "026_validator_days.sql": "4295f1ec5d7f12d622dafb1a000a8f268a8a7f517af02e4c2f4101ecb615e9ca",
  "027_txs_record_zstd.sql": "6d7cf7d80a8fa35d9a527679be56143653a53fc105576c2188553535360061a5",
  "028_tx_stats_written.sql": "bfbbbe31ca397fcfde56282d4c51b19d26181382fa836a0de190359be9c4128c",
};

describe("migration files", () => {
  it("keep the checksums stores recorded when they applied them", () => {
    const now = Object.fromEntries(loadMigrations().map((m) => [m.name, m.checksum]));
    for (const [name, checksum] of Object.entries(RELEASED))
      expect(now[name], `${name} changed after its release`).toBe(checksum);
  });

  it("write out REBUILD and REPEAT, and refuse a REPEAT of what the file does not create", () => {
    const dir = mkdtempSync(join(tmpdir(), "migrations-"));
    writeFileSync(join(dir, "001_a.sql"), "CREATE VIEW IF NOT EXISTS {db}.v AS\nSELECT 1;\n");
    const text = "REBUILD TABLE {db}.t\nENGINE = Memory;\nREPEAT CREATE {db}.v FROM 001_a.sql;\n";
    expect(expandMigration(text, dir)).toBe(
      [
        "DROP TABLE IF EXISTS {db}.t_rebuilt;",
        "CREATE TABLE {db}.t_rebuilt AS {db}.t",
        "ENGINE = Memory;",
        "INSERT INTO {db}.t_rebuilt SELECT * FROM {db}.t;",
        "EXCHANGE TABLES {db}.t AND {db}.t_rebuilt;",
        "DROP TABLE {db}.t_rebuilt;",
        "CREATE VIEW IF NOT EXISTS {db}.v AS",
        "SELECT 1;",
        "",
      ].join("\n"),
    );
    expect(() => expandMigration("REPEAT CREATE {db}.w FROM 001_a.sql;", dir)).toThrow(
      MigrationError,
    );
  });
});

describe("migrations on chDB", () => {
  it("apply once, record themselves, and are a no-op the second time", async () => {
    const first = await migrate(ch, "mig_a");
    expect(first).toEqual(loadMigrations().map((m) => m.name));
    expect(await migrate(ch, "mig_a")).toEqual([]);
    const rs = await ch.query({
      query: "SELECT name FROM system.tables WHERE database = 'mig_a' ORDER BY name",
      format: "JSONEachRow",
    });
    const tables = (await rs.json<{ name: string }>()).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "blocks",
        "txs",
        "addresses",
        "validators",
        "event_logs",
        "token_transfers",
        "token_holders",
        "token_inventory",
      ]),
    );
  });

  it("refuse a migration file that changed after it was applied", async () => {
    const ms = loadMigrations();
    await migrate(ch, "mig_b", ms);
    const changed = ms.map((m, i) => (i === 0 ? { ...m, checksum: "different" } : m));
    await expect(migrate(ch, "mig_b", changed)).rejects.toBeInstanceOf(MigrationError);
  });

  it("013: a full verification replaces a partial one, in either order; rows from before kept", async () => {
    const ms = loadMigrations();
    await migrate(
      ch,
      "mig_v",
      ms.filter((m) => m.name < "013"),
    );
    const row = (address: string, match: string) =>
      `('${address}', 'C', 'C.sol', 'v0.8.28+commit.7893614a', 'solidity-single-file', 'src', 1, 200, 'cancun', '', '[]', '[]', '${match}', 'MIT', now64(3), 1)`;
    const insert = (...rows: string[]) =>
      ch.command({ query: `INSERT INTO mig_v.verified_contracts VALUES ${rows.join(", ")}` });
    await insert(row("0xa", "partial"));
    expect(await migrate(ch, "mig_v")).toEqual(
      ms.filter((m) => m.name >= "013").map((m) => m.name),
    );
    const matches = async () => {
      const rs = await ch.query({
        query: "SELECT address, match FROM mig_v.verified_contracts FINAL ORDER BY address",
        format: "JSONEachRow",
      });
      return rs.json<{ address: string; match: string }>();
    };
    expect(await matches()).toEqual([{ address: "0xa", match: "partial" }]);
    // 0xa: the full row after the partial; 0xb: the partial after the full, even in one insert.
    await insert(row("0xa", "full"));
    await insert(row("0xb", "full"), row("0xb", "partial"));
    await insert(row("0xc", "full"));
    await insert(row("0xc", "partial"));
    const expected = [
      { address: "0xa", match: "full" },
      { address: "0xb", match: "full" },
      { address: "0xc", match: "full" },
    ];
    expect(await matches()).toEqual(expected);
    await ch.command({ query: "OPTIMIZE TABLE mig_v.verified_contracts FINAL" });
    expect(await matches()).toEqual(expected);
  });

  it("refuse a database name that is not an identifier", async () => {
    await expect(migrate(ch, "x; DROP TABLE y")).rejects.toBeInstanceOf(MigrationError);
  });

  it("switch the current table set", async () => {
    expect(await currentSet(ch, "sets")).toBeUndefined();
    await switchSet(ch, "sets", 1);
    await switchSet(ch, "sets", 2); // within the same millisecond too
    expect(await currentSet(ch, "sets")).toBe(2);
  });

  it("a switch wins over one made from a host whose clock was ahead", async () => {
    await switchSet(ch, "skew", 1);
    const ahead = Date.now() + 3_600_000; // the previous switcher's clock: an hour ahead
    await ch.insert({
      table: "skew_meta.current_set",
      values: [{ name: "current", set: 2, switched_at: ahead }],
      format: "JSONEachRow",
    });
    expect(await currentSet(ch, "skew")).toBe(2);
    await switchSet(ch, "skew", 3);
    expect(await currentSet(ch, "skew")).toBe(3);
    await ch.command({ query: "OPTIMIZE TABLE skew_meta.current_set FINAL" }); // merged: still 3
    expect(await currentSet(ch, "skew")).toBe(3);
  });

  it("name the file and statement that failed, and leave that migration unrecorded", async () => {
    const ms = loadMigrations();
    const broken = { name: "999_broken.sql", checksum: "x", statements: ["SELECT 1", "SELEC 2"] };
    const err = await migrate(ch, "mig_c", [...ms, broken]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(
      /^999_broken\.sql on mig_c, statement 2 of 2: Syntax error/,
    );
    // the ones before it are applied and recorded; it is not, so a fixed file runs again
    expect(await migrate(ch, "mig_c")).toEqual([]);
    const fixed = { ...broken, statements: ["SELECT 1"] };
    expect(await migrate(ch, "mig_c", [...ms, fixed])).toEqual(["999_broken.sql"]);
  });

  it("a reader waits for the current set to exist and hold every migration, creating no set itself", async () => {
    const base = "wait";
    const told: string[] = [];
    let got: { set: number; db: string } | undefined;
    const waiting = awaitMigratedSet(ch, base, {
      onWait: (w) => told.push(w),
      intervalMs: 20,
    }).then((r) => {
      got = r;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(got).toBeUndefined();
    expect(told).toEqual([expect.stringMatching(/^no table set in wait yet/)]); // said once
    const dbs = async () =>
      (
        await (
          await ch.query({
            query: "SELECT name FROM system.databases WHERE name = 'wait_1'",
            format: "JSONEachRow",
          })
        ).json()
      ).length;
    expect(await dbs()).toBe(0);

    // a set migrated up to all but the last migration, then made current: still waiting
    const ms = loadMigrations();
    await migrate(ch, "wait_1", ms.slice(0, -1));
    await switchSet(ch, base, 1);
    await new Promise((r) => setTimeout(r, 150));
    expect(got).toBeUndefined();
    expect(told[1]).toMatch(new RegExp(`^wait_1 lacks 1 migration\\(s\\) from ${ms.at(-1)!.name}`));

    await ensureCurrentSet(ch, base); // what the projector does
    await waiting;
    expect(got).toEqual({ set: 1, db: "wait_1" });
  });

  it("a reader's wait ends when it is told to stop", async () => {
    const stop = new AbortController();
    const waiting = awaitMigratedSet(ch, "never", { intervalMs: 20, signal: stop.signal });
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
  });
});
