import type { ClickHouseClient } from "@clickhouse/client";

/**
 * Table sets: every projection lives in a database `<base>_<n>`. The current set is a row of
 * `<base>_meta.current_set`; a re-index fills a new set, then switches the row in one insert,
 * which readers see atomically. Data teams query the current set's tables (or the views in
 * `<base>`, which the switch repoints).
 */
export const metaDb = (base: string) => `${base}_meta`;
export const setDb = (base: string, n: number) => `${base}_${n}`;

export const ensureMeta = async (ch: ClickHouseClient, base: string) => {
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${metaDb(base)}` });
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS ${metaDb(base)}.current_set (name String, set UInt32, switched_at DateTime64(3, 'UTC')) ENGINE = ReplacingMergeTree(switched_at) ORDER BY name`,
  });
};

/** The current table set number, or undefined before the first projection. */
export const currentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<number | undefined> => {
  await ensureMeta(ch, base);
  const rs = await ch.query({
    query: `SELECT argMax(set, switched_at) AS set, count() AS n FROM ${metaDb(base)}.current_set WHERE name = 'current'`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ set: number; n: string | number }>();
  return row && Number(row.n) > 0 ? Number(row.set) : undefined;
};

/**
 * Makes `set` current. Its row's `switched_at` (the version readers go by) is now, or just after
 * the latest switch if that is later: a switch from a host whose clock is behind the previous
 * switcher's would otherwise lose, and readers stay on the old set.
 */
export const switchSet = async (ch: ClickHouseClient, base: string, set: number) => {
  await ensureMeta(ch, base);
  const rs = await ch.query({
    query: `SELECT toUnixTimestamp64Milli(max(switched_at)) AS last, count() AS n FROM ${metaDb(base)}.current_set WHERE name = 'current'`,
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ last: string | number; n: string | number }>();
  const last = row && Number(row.n) > 0 ? Number(row.last) : 0;
  await ch.insert({
    table: `${metaDb(base)}.current_set`,
    values: [{ name: "current", set, switched_at: Math.max(Date.now(), last + 1) }],
    format: "JSONEachRow",
  });
};

/** Key-value tables (EmbeddedRocksDB: one row per key, no FINAL) that get a view too. */
export const KEY_VALUE_TABLES = ["tx_hash", "block_records"] as const;

/** Tables a migration dropped (022: `tx_records`): their views in `<base>` go at the next repoint. */
const DROPPED_TABLES = ["tx_records"] as const;

/**
 * Analytics tables ClickHouse fills from the projector's inserts (sql/020: the histories; sql/021,
 * 025 and 026: the days the projector settles; sql/025: from `token_meta` and `addresses`;
 * sql/024: accounts and native coin): a view with FINAL each. The projector's own (`tx_stats`,
 * `block_stats`…) are among its tables.
 */
export const ANALYTICS_TABLES = [
  "day_stats",
  "balance_history",
  "token_balance_history",
  "validator_history",
  // sql/025: by type, tokens and delegators
  "day_types",
  "token_seen",
  "delegator_history",
  // sql/024
  "account_firsts",
  "balance_readings",
  "account_day_stats",
  // sql/026
  "validator_day_stats",
] as const;

/**
 * Views `<base>.<table>` over the current set, for SQL users: `tables` (the projector's, every
 * one a Replacing- or AggregatingMergeTree) and `progress` read with FINAL inside the view, so a
 * row a replay inserted again counts once before ClickHouse merges it (FINAL written on a view is
 * not passed down to its table: a query through a plain view saw both copies); the key-value
 * tables as they are.
 */
export const repointViews = async (
  ch: ClickHouseClient,
  base: string,
  set: number,
  tables: readonly string[],
) => {
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${base}` });
  const view = (t: string, final: boolean) =>
    ch.command({
      query: `CREATE OR REPLACE VIEW ${base}.${t} AS SELECT * FROM ${setDb(base, set)}.${t}${final ? " FINAL" : ""}`,
    });
  for (const t of [...tables, ...ANALYTICS_TABLES, "progress"]) await view(t, true);
  for (const t of KEY_VALUE_TABLES) await view(t, false);
  for (const t of DROPPED_TABLES) await ch.command({ query: `DROP VIEW IF EXISTS ${base}.${t}` });
};

/** The current table set, created (set 1) and migrated if needed, so readers and writers find its tables. */
export const ensureCurrentSet = async (
  ch: ClickHouseClient,
  base: string,
): Promise<{ set: number; db: string; created: boolean }> => {
  const { migrate } = await import("./migrate.ts");
  const existing = await currentSet(ch, base);
  const set = existing ?? 1;
  await migrate(ch, setDb(base, set));
  if (existing === undefined) await switchSet(ch, base, set);
  return { set, db: setDb(base, set), created: existing === undefined };
};

/**
 * The current table set once it exists and holds every migration, asked every `intervalMs`
 * (default 1 s): for readers that must not migrate (the API; see migrate). `onWait` is told why,
 * once per reason.
 */
export const awaitMigratedSet = async (
  ch: ClickHouseClient,
  base: string,
  o: { onWait?: (why: string) => void; signal?: AbortSignal; intervalMs?: number } = {},
): Promise<{ set: number; db: string }> => {
  const { loadMigrations, pendingMigrations } = await import("./migrate.ts");
  const migrations = loadMigrations();
  let told = "";
  for (;;) {
    o.signal?.throwIfAborted();
    const set = await currentSet(ch, base);
    const db = set === undefined ? "" : setDb(base, set);
    const pending = set === undefined ? [] : await pendingMigrations(ch, db, migrations);
    if (set !== undefined && pending.length === 0) return { set, db };
    const why =
      set === undefined
        ? `no table set in ${base} yet: waiting for the projector (or \`explorer migrate\`) to create it`
        : `${db} lacks ${pending.length} migration(s) from ${pending[0]!.name}: waiting for the projector (or \`explorer migrate\`) to apply them`;
    if (why !== told) o.onWait?.(why);
    told = why;
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 1000));
  }
};
