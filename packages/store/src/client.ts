import { Readable } from "node:stream";
import { type ClickHouseClient, createClient } from "@clickhouse/client";
import { ChdbPool, poolSize } from "./chdb-pool.ts";
import { inlineParams } from "./params.ts";

/**
 * One ClickHouse client for both ways to run: a ClickHouse server over HTTP (production), or chDB,
 * the ClickHouse engine in this process (embedded), plugged into @clickhouse/client's connection
 * hook, so every query in the project is the same code on both.
 */
export type StoreTarget =
  | { readonly kind: "chdb"; readonly path: string }
  | {
      readonly kind: "server";
      readonly url: string;
      readonly username?: string;
      readonly password?: string;
    };

export const openClickHouse = async (target: StoreTarget): Promise<ClickHouseClient> => {
  if (target.kind === "server") {
    return createClient({
      url: target.url,
      username: target.username ?? "default",
      password: target.password ?? "",
      clickhouse_settings: { date_time_input_format: "best_effort" },
      max_open_connections: 16,
    });
  }
  const { createChdbConnection } = (await import(
    "chdb/connection"
  )) as typeof import("chdb/connection");
  const pool = new ChdbPool(
    Array.from({ length: poolSize() }, () => createChdbConnection({ path: target.path })),
  );
  const client = createClient({ connection: pool.connection as never });
  chdbPools.set(client, pool);
  return client;
};

const INSERT = { input_format_json_read_objects_as_strings: 1 } as const;
// In this process the engine shares the cores with the app: no extra parsing threads.
const CHDB_INSERT = { ...INSERT, input_format_parallel_parsing: 0 } as const;

const chdbPools = new WeakMap<ClickHouseClient, ChdbPool>();

/**
 * Inserts rows already encoded as JSONEachRow (one JSON object per line) into `table`
 * (`db.table`). With chDB the bytes go to the engine as they are (no copy into a query string);
 * with a server they are the request body. Cheaper than `client.insert` with row objects, which
 * serialises on the way. A JSON object given for a String column is stored as its JSON text, as
 * written.
 */
export const insertJsonEachRow = async (
  ch: ClickHouseClient,
  table: string,
  body: Uint8Array,
): Promise<void> => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/.test(table))
    throw new Error(`not a table name: ${table}`);
  if (body.length === 0) return;
  const pool = chdbPools.get(ch);
  if (pool) {
    await pool.run((c) =>
      c.chdb.rawInsert({ table, values: body, format: "JSONEachRow", settings: CHDB_INSERT }),
    );
    return;
  }
  const r = await ch.exec({
    query: `INSERT INTO ${table} FORMAT JSONEachRow`,
    values: Readable.from([body]),
    clickhouse_settings: INSERT,
  });
  r.stream.destroy();
};

/** `STORE_URL`: `chdb:<path>` (default `chdb:.data/chdb`) or `http(s)://user:pass@host:8123`. */
export const parseStoreUrl = (url: string): StoreTarget => {
  if (url.startsWith("chdb:")) return { kind: "chdb", path: url.slice(5) || ".data/chdb" };
  const u = new URL(url);
  return {
    kind: "server",
    url: `${u.protocol}//${u.host}`,
    username: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
  };
};

/**
 * Rows of a query with parameters (`{name:Type}` placeholders). A server binds them; with chDB
 * they are written into the SQL as literals (see params.ts), so that queries run side by side.
 */
export const queryRows = async <T>(
  ch: ClickHouseClient,
  sql: string,
  params: Readonly<Record<string, unknown>> = {},
): Promise<T[]> => {
  const embedded = chdbPools.has(ch);
  const rs = await ch.query({
    query: embedded ? inlineParams(sql, params) : sql,
    ...(embedded ? {} : { query_params: params }),
    format: "JSONEachRow",
  });
  return rs.json<T>();
};
