import { DEFAULT_SQL_LIMITS } from "@explorer/store/sql-sandbox";
import { Option, Redacted } from "effect";
import { describe, expect, it } from "vitest";
import { keysWithScope, parseApiKeys } from "../../http/settings.ts";
import { isLoopback, type SqlPolicy, sqlAccess } from "./access.ts";
import { formatOf, fromBody } from "./request.ts";

const policy = (o: Partial<SqlPolicy>): SqlPolicy => ({
  keys: new Set(["k-sql"]),
  anonymous: "auto",
  listensOnLoopback: true,
  perMinute: 30,
  maxConcurrent: 2,
  limits: DEFAULT_SQL_LIMITS,
  ...o,
});

describe("who may run SQL", () => {
  it("a key with the sql scope, anywhere; a key without it, nowhere", () => {
    for (const p of [policy({}), policy({ anonymous: "off" }), policy({ anonymous: "on" })]) {
      expect(sqlAccess(p, "k-sql", "203.0.113.9")).toEqual({ ok: true, client: "key:k-sql" });
      expect(sqlAccess(p, "k-other", "127.0.0.1")).toMatchObject({ ok: false, status: 403 });
    }
  });

  it("without a key: loopback clients of an API on loopback (auto), anyone (on), no one (off)", () => {
    expect(sqlAccess(policy({}), undefined, "127.0.0.1").ok).toBe(true);
    expect(sqlAccess(policy({}), undefined, "::ffff:127.0.0.1").ok).toBe(true);
    expect(sqlAccess(policy({}), undefined, "::1").ok).toBe(true);
    expect(sqlAccess(policy({}), undefined, "10.0.0.2")).toMatchObject({ ok: false, status: 401 });
    // Behind a proxy on the same host every client is loopback: auto is off when the API listens
    // on another address.
    const exposed = policy({ listensOnLoopback: false });
    expect(sqlAccess(exposed, undefined, "127.0.0.1")).toMatchObject({ ok: false, status: 401 });
    expect(sqlAccess(policy({ anonymous: "on" }), undefined, "10.0.0.2").ok).toBe(true);
    expect(sqlAccess(policy({ anonymous: "off" }), undefined, "127.0.0.1").ok).toBe(false);
    expect(["127.0.0.1", "127.1.2.3", "::1", "0.0.0.0", "::", "10.0.0.1"].map(isLoopback)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("API_KEYS gives scopes after the limit; an unknown scope is refused", () => {
    const v = Option.some(Redacted.make("a:100:sql,b:50,c::sql"));
    expect(keysWithScope(v, "sql")).toEqual(new Set(["a", "c"]));
    expect(parseApiKeys(v, 10)).toEqual(
      new Map([
        ["a", 100],
        ["b", 50],
        ["c", 100],
      ]),
    );
    expect(() => parseApiKeys(Option.some(Redacted.make("a:100:root")), 10)).toThrow(/scopes/);
    expect(() => parseApiKeys(Option.some(Redacted.make("a::")), 10)).toThrow(/positive/);
  });
});

describe("a SQL request", () => {
  it("takes its format from format=, else Accept, else JSON", () => {
    expect(formatOf("CSV", "application/json")).toBe("csv");
    expect(formatOf(undefined, "text/html, text/csv;q=0.9")).toBe("csv");
    expect(formatOf(undefined, "application/vnd.apache.parquet")).toBe("parquet");
    expect(formatOf(undefined, "*/*")).toBe("json");
  });

  it("reads a body as the query's text, or JSON {query, params, format}", () => {
    expect(fromBody("text/plain", "SELECT 1")).toEqual({ query: "SELECT 1", params: {} });
    expect(fromBody("", "SELECT 1")).toEqual({ query: "SELECT 1", params: {} });
    expect(fromBody("application/json", '{"query":"SELECT {a:UInt8}","params":{"a":1}}')).toEqual({
      query: "SELECT {a:UInt8}",
      params: { a: 1 },
      format: undefined,
    });
    expect(fromBody("application/json", '{"query":1}')).toMatch(/query must be a string/);
    expect(fromBody("application/json", '{"query":"x","format":"xml"}')).toMatch(/format/);
    expect(fromBody("application/json", "[")).toMatch(/not JSON/);
  });
});
