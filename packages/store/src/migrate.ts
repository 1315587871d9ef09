import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClickHouseClient } from "@clickhouse/client";
import { Fatal } from "@explorer/service/errors";

export const sqlDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "sql");

export interface Migration {
  readonly name: string;
  readonly checksum: string;
  readonly statements: readonly string[];
}

/** A migration the store cannot take (tagged: the command line says it in one line). */
export class MigrationError extends Fatal {
  override readonly name = "MigrationError";
  readonly _tag = "MigrationError";
}

/**
 * `REBUILD TABLE {db}.<t>`, then on the next lines up to `;` an engine clause: `<t>` is copied into
 * a new table with that clause, swapped in by EXCHANGE, and the old one dropped. Rerunnable: an
 * interrupted run starts again from a fresh copy.
 */
const REBUILD = /^REBUILD TABLE \{db\}\.(\w+)\n([^;]*;)$/gm;
/** `REPEAT CREATE {db}.<name> FROM <file>;`: the statement creating `<name>` in `<file>`, as written there. */
const REPEAT = /^REPEAT CREATE \{db\}\.(\w+) FROM (\d{3}_[\w.]+\.sql);$/gm;

/**
 * A migration's text with its shorthands (REBUILD, REPEAT) written out: the text that runs and
 * that its checksum is taken of, so a file rewritten with them keeps the checksum stores recorded.
 */
export const expandMigration = (text: string, dir = sqlDir): string =>
  text
    .replace(REBUILD, (_, t: string, engine: string) =>
      [
        `DROP TABLE IF EXISTS {db}.${t}_rebuilt;`,
        `CREATE TABLE {db}.${t}_rebuilt AS {db}.${t}`,
        engine,
        `INSERT INTO {db}.${t}_rebuilt SELECT * FROM {db}.${t};`,
        `EXCHANGE TABLES {db}.${t} AND {db}.${t}_rebuilt;`,
        `DROP TABLE {db}.${t}_rebuilt;`,
      ].join("\n"),
    )
    .replace(REPEAT, (line, name: string, file: string) => {
      const create = new RegExp(`^CREATE [A-Z ]*\\{db\\}\\.${name}\\s[^;]*;$`, "m");
      const found = create.exec(readFileSync(join(dir, file), "utf8"));
      if (!found) throw new MigrationError(`${line} finds no CREATE of ${name} in ${file}`);
      return found[0];
    });

/** The numbered migrations of sql/ (NNN_name.sql), in order, expanded, split into statements. */
export const loadMigrations = (dir = sqlDir): Migration[] =>
  readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const text = expandMigration(readFileSync(join(dir, f), "utf8"), dir);
      const statements = text
        .split(/;\s*$/m)
        .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
        .filter(Boolean);
      return { name: f, checksum: createHash("sha256").update(text).digest("hex"), statements };
    });

const validDb = (db: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(db)) throw new MigrationError(`not a database name: ${db}`);
  return db;
};

/** Migrations of `migrations` not yet applied to table set `db` (which must exist), in order. */
export const pendingMigrations = async (
  ch: ClickHouseClient,
  db: string,
  migrations = loadMigrations(),
): Promise<Migration[]> => {
  validDb(db);
  const rs = await ch.query({
    query: `SELECT name, checksum FROM ${db}._migrations FINAL`,
    format: "JSONEachRow",
  });
  const applied = new Map(
    (await rs.json<{ name: string; checksum: string }>()).map((r) => [r.name, r.checksum]),
  );
  return migrations.filter((m) => {
    const prior = applied.get(m.name);
    if (prior !== undefined && prior !== m.checksum)
      throw new MigrationError(
        `${m.name} changed after it was applied to ${db}; add a new migration instead`,
      );
    return prior === undefined;
  });
};

/**
 * Applies the migrations not yet applied to table set `db`, recording each in `db._migrations`.
 * Idempotent; refuses a migration whose file changed after it was applied. One process at a
 * time: some migrations rebuild a table (copy, then swap), so rows another process inserts into
 * the set meanwhile can be lost. The projector, `explorer migrate`, `start` and a re-index (on its
 * new set) migrate; the API only waits for it (awaitMigratedSet).
 */
export const migrate = async (
  ch: ClickHouseClient,
  db: string,
  migrations = loadMigrations(),
): Promise<string[]> => {
  validDb(db);
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS ${db}._migrations (name String, checksum String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplacingMergeTree ORDER BY name`,
  });
  const done: string[] = [];
  for (const m of await pendingMigrations(ch, db, migrations)) {
    for (const [i, s] of m.statements.entries()) {
      try {
        await ch.command({ query: s.replaceAll("{db}", db) });
      } catch (e) {
        throw new MigrationError(
          `${m.name} on ${db}, statement ${i + 1} of ${m.statements.length}: ${e instanceof Error ? e.message : String(e)}`,
          { cause: e },
        );
      }
    }
    await ch.insert({
      table: `${db}._migrations`,
      values: [{ name: m.name, checksum: m.checksum, applied_at: Date.now() }],
      format: "JSONEachRow",
    });
    done.push(m.name);
  }
  return done;
};
