import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";
import { afterAll, describe, expect, it } from "vitest";
import { BadStoreUrl, openClickHouse, parseStoreUrl, queryFields, queryRows } from "./client.ts";
import { inlineParams, literal, ParamError } from "./params.ts";

const dir = mkdtempSync(join(tmpdir(), "chdb-params-"));
const ch = await openClickHouse({ kind: "chdb", path: dir });
// The generic client binds parameters in the engine, as a server does.
const bound = createClient({ connection: createChdbConnection({ path: dir }) as never });
afterAll(async () => {
  await bound.close();
  await ch.close();
});

const awkward = [
  "plain",
  "it's",
  "back\\slash",
  "\\'",
  "tab\tnl\n",
  "nul\0byte",
  "ünïcødé ✓",
  "",
  "{x:String}",
];

describe("parameters written as literals", () => {
  it("give the rows that bound parameters give, for awkward strings, arrays and integers", async () => {
    const sql =
      "SELECT {s:String} AS s, length({s:String}) AS n, {s:String} IN {a:Array(String)} AS found, toString({u:UInt64}) AS u, {i:Int32} AS i";
    for (const s of awkward) {
      const params = { s, a: ["x", s], u: "18446744073709551615", i: -7 };
      const want = await (
        await bound.query({ query: sql, query_params: params, format: "JSONEachRow" })
      ).json();
      expect(await queryRows(ch, sql, params)).toEqual(want);
      expect(want).toEqual([
        { s, n: Buffer.byteLength(s), found: 1, u: "18446744073709551615", i: -7 },
      ]);
    }
    expect(await queryRows(ch, "SELECT 'a' IN {a:Array(String)} AS f", { a: [] })).toEqual([
      { f: 0 },
    ]);
  });

  it("come back as the generic client reads them: many rows, none, and a failing query's error", async () => {
    const sql = "SELECT number AS n, repeat('ab\n', toUInt32(number)) AS s FROM numbers(5)";
    const want = await (await bound.query({ query: sql, format: "JSONEachRow" })).json();
    expect(want).toHaveLength(5);
    expect(await queryRows(ch, sql)).toEqual(want);
    expect(await queryRows(ch, "SELECT 1 AS x WHERE 0")).toEqual([]);
    await expect(queryRows(ch, "SELECT nope FROM system.one")).rejects.toThrow(/nope/);
  });

  it("refuse values that are not of the placeholder's type, and unknown types", () => {
    expect(() => literal("UInt64", -1)).toThrow(ParamError);
    expect(() => literal("UInt64", 1.5)).toThrow(ParamError);
    expect(() => literal("UInt64", "1 OR 1=1")).toThrow(ParamError);
    expect(() => literal("String", 5)).toThrow(ParamError);
    expect(() => literal("Array(String)", "a")).toThrow(ParamError);
    expect(() => literal("Float64", 1)).toThrow(/not supported/);
    expect(() => inlineParams("SELECT {a:String}", {})).toThrow(/no value for parameter a/);
    expect(literal("UInt8", true)).toBe("1");
    expect(literal("Array(UInt32)", [1, 2n, "3"])).toBe("[1,2,3]");
  });
});

describe("fields read raw", () => {
  it("are the text of each value, JSON with no string around it, as the generic client reads it", async () => {
    const json = JSON.stringify({ a: 'tab\tnl\n quote" back\\ ünï ✓', n: [1, 2] });
    const sql = "SELECT toString(number) AS h, {j:String} AS j FROM numbers(3)";
    const rows = await queryFields(ch, sql, { j: json }, 2);
    expect(rows).toEqual([0, 1, 2].map((n) => [String(n), json]));
    const want = await (
      await bound.query({ query: sql, query_params: { j: json }, format: "JSONEachRow" })
    ).json<{ h: string; j: string }>();
    expect(rows).toEqual(want.map((r) => [r.h, r.j]));
    // the server's way: parameters bound by the engine, the text read from the client's stream
    expect(await queryFields(bound, sql, { j: json }, 2)).toEqual(rows);
    expect(await queryFields(ch, "SELECT 1, '' WHERE 0", {}, 2)).toEqual([]);
    expect(await queryFields(ch, "SELECT 1, ''", {}, 2)).toEqual([["1", ""]]);
  });

  it("refuse a value holding a tab or a newline, and a read of one column", async () => {
    await expect(queryFields(ch, "SELECT 1, 'a\tb'", {}, 2)).rejects.toThrow(/3 fields where 2/);
    await expect(queryFields(ch, "SELECT 1, 'a\nb'", {}, 2)).rejects.toThrow(/1 fields where 2/);
    await expect(queryFields(ch, "SELECT 'x'", {}, 1)).rejects.toThrow(/two columns/);
  });
});

describe("store addresses", () => {
  it("chdb:<dir>, or a server's http(s) address with its user; anything else is said plainly", () => {
    expect(parseStoreUrl("chdb:/tmp/x")).toEqual({ kind: "chdb", path: "/tmp/x" });
    expect(parseStoreUrl("http://u:p%40ss@ch:8123/")).toEqual({
      kind: "server",
      url: "http://ch:8123",
      username: "u",
      password: "p@ss",
    });
    for (const bad of ["not a url", "/var/data", "ftp://ch:8123", "http://[bad"])
      expect(() => parseStoreUrl(bad), bad).toThrow(
        new BadStoreUrl(
          `store "${bad}" is neither chdb:<dir> (embedded) nor the http(s) address of a ClickHouse server`,
        ),
      );
  });
});
