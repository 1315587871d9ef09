import { type ClickHouseClient, createClient } from "@clickhouse/client";

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
  return createClient({ connection: createChdbConnection({ path: target.path }) as never });
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
