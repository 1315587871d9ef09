import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTicks } from "@explorer/service/process";
import { afterAll, describe, expect, it } from "vitest";
import { insertRowBinary, openClickHouse, queryRows, readTableColumns } from "./client.ts";
import { migrate } from "./migrate.ts";
import { encodeRowBinary, parseColumnType, UnsupportedColumnType } from "./row-binary.ts";

/**
 * Rows go in as RowBinary through chDB's native insert and come back as they were given: every
 * column type the schema uses, the values at each type's limits, strings with every kind of byte.
 */
const dir = mkdtempSync(join(tmpdir(), "chdb-rowbinary-"));
const ch = await openClickHouse({ kind: "chdb", path: dir });
afterAll(() => ch.close());

await ch.command({ query: "CREATE DATABASE IF NOT EXISTS rb" });
await ch.command({
  query: `CREATE TABLE rb.t (
    id UInt32, u8 UInt8, u16 UInt16, u64 UInt64, u256 UInt256, s String, tags Array(String),
    n Nullable(UInt8), time DateTime64(3, 'UTC'), low LowCardinality(String),
    first SimpleAggregateFunction(min, UInt64)
  ) ENGINE = MergeTree ORDER BY id`,
});
const columns = (await readTableColumns(ch, "rb")).t!;

const select = () =>
  queryRows<Record<string, unknown>>(
    ch,
    "SELECT id, u8, u16, toString(u64) AS u64, toString(u256) AS u256, s, tags, n, toString(time) AS time, low, toString(first) AS first FROM rb.t ORDER BY id",
  );

const ascii = (n: number) => "x".repeat(n);
const strings = [
  "",
  "nul \0 tab \t newline \n cr \r backslash \\ quote ' \" ",
  "an empty line \n\n inside",
  "ünïcödé ✓ 𝄞 emoji 🚀",
  ascii(42),
  ascii(43),
  "é".repeat(43), // 86 bytes: the length's varint is still one byte
  "é".repeat(64), // 128 bytes: two
  ascii(127),
  ascii(128),
  "✓".repeat(5462), // 16,386 bytes: three
  ascii(300_000),
];

describe("RowBinary through chDB", () => {
  it("keeps every value of every column type, byte for byte", async () => {
    const rows = strings.map((s, i) => ({
      id: i,
      u8: i === 0 ? 255 : i % 2 === 0,
      u16: 65_535,
      u64:
        i === 0 ? "18446744073709551615" : i === 1 ? 2 ** 53 - 1 : i === 2 ? "999999999999999" : 0,
      // text of up to 15 digits is read as a number, longer text as a BigInt
      u256:
        i === 0
          ? (2n ** 256n - 1n).toString()
          : i === 2
            ? "123456789012345"
            : String(10n ** 30n + BigInt(i)),
      s,
      tags: i === 0 ? [] : [s.slice(0, 10), "b"],
      n: i === 0 ? null : 7,
      time: i === 0 ? "2024-05-06 07:08:09.123" : "2024-05-06T07:08:09.456Z",
      low: "low",
      first: 5,
    }));
    await insertRowBinary(ch, "rb.t", columns, encodeRowBinary(columns, rows));
    const back = await select();
    expect(back).toHaveLength(rows.length);
    expect(back[0]).toEqual({
      id: 0,
      u8: 255,
      u16: 65_535,
      u64: "18446744073709551615",
      u256: (2n ** 256n - 1n).toString(),
      s: "",
      tags: [],
      n: null,
      time: "2024-05-06 07:08:09.123",
      low: "low",
      first: "5",
    });
    expect(back[1]).toMatchObject({
      u8: 0,
      u64: String(2 ** 53 - 1),
      n: 7,
      time: "2024-05-06 07:08:09.456",
    });
    expect(back[2]).toMatchObject({ u8: 1, u64: "999999999999999", u256: "123456789012345" });
    expect(back.map((r) => r.s)).toEqual(strings);
    expect(back.map((r) => r.u256)).toEqual(rows.map((r) => r.u256));
  });

  it("keeps short values written across the buffer's growth, given in chunks", async () => {
    await ch.command({
      query: "CREATE TABLE rb.short (id UInt32, s String) ENGINE = MergeTree ORDER BY id",
    });
    const short = (await readTableColumns(ch, "rb")).short!;
    const rows = Array.from({ length: 20_000 }, (_, id) => ({ id, s: "abc".slice(0, id % 4) }));
    // In chunks, as the projector hands them over (one per block).
    const chunks = [0, 7_000, 14_000].map((at) =>
      encodeRowBinary(short, rows.slice(at, at + 7_000)),
    );
    await insertRowBinary(ch, "rb.short", short, chunks);
    expect(await queryRows(ch, "SELECT id, s FROM rb.short ORDER BY id")).toEqual(rows);
  });

  it("gives a missing or null value its column's default, and ignores fields of no column", async () => {
    await insertRowBinary(ch, "rb.t", columns, encodeRowBinary(columns, [{ id: 100, extra: 1 }]));
    const [row] = (await select()).filter((r) => r.id === 100);
    expect(row).toEqual({
      id: 100,
      u8: 0,
      u16: 0,
      u64: "0",
      u256: "0",
      s: "",
      tags: [],
      n: null,
      time: "1970-01-01 00:00:00.000",
      low: "",
      first: "0",
    });
  });

  it("refuses a value its column cannot hold, before anything is written", () => {
    const bad: [string, unknown][] = [
      ["u8", 256],
      ["u8", -1],
      ["u8", "256"],
      ["u16", "65536"],
      ["u16", 1.5],
      ["u64", "18446744073709551616"],
      ["u64", "12abc"],
      ["u256", (2n ** 256n).toString()],
      ["u64", 2 ** 60],
      ["time", "yesterday"],
      ["time", "2024-05-06 07:08:09+02:00"],
      ["time", "2024-02-30 00:00:00"], // not a day (Date.parse would make it March 1st)
      ["time", "2023-02-29 12:00:00.5"],
      ["time", "2024-01-01 24:00:00"],
      ["tags", "not a list"],
      ["s", { a: 1 }], // would be "[object Object]"
      ["tags", [["nested"]]],
      ["low", ["a"]],
    ];
    for (const [column, value] of bad)
      expect(
        () => encodeRowBinary(columns, [{ id: 1, [column]: value }]),
        `${column}=${String(value)}`,
      ).toThrow(new RegExp(column));
  });

  it("leaves nothing in the spool, and clears what a killed process left there", async () => {
    const spool = join(dir, "insert-spool");
    expect(readdirSync(spool)).toEqual([]);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    const start = startTicks(process.pid);
    const live = [
      `${process.pid}-9-0.bin`, // an earlier version's name: by pid alone
      ...(start === undefined ? [] : [`${process.pid}-s${start}-9-1.bin`]),
    ];
    for (const f of live) writeFileSync(join(spool, f), "another store of this process, inserting");
    writeFileSync(join(spool, `${dead}-0-7.bin`), "left by a process killed mid-insert");
    writeFileSync(join(spool, `${dead}-s1-0-7.bin`), "left by a process killed mid-insert");
    // left by an earlier process with this pid (a restarted container's often has the same)
    if (start !== undefined)
      writeFileSync(join(spool, `${process.pid}-s${Number(start) - 1}-0-7.bin`), "left behind");
    const again = await openClickHouse({ kind: "chdb", path: dir });
    expect(readdirSync(spool).sort()).toEqual(live.sort());
    for (const f of live) rmSync(join(spool, f));
    await again.close();
  });

  it("refuses what is not a table or column name, and inserts nothing for no rows", async () => {
    await expect(
      insertRowBinary(ch, "rb.t; DROP TABLE x", columns, new Uint8Array(1)),
    ).rejects.toThrow(/not a table name/);
    await expect(
      insertRowBinary(
        ch,
        "rb.t",
        [{ name: "id) SELECT 1 --", typeName: "String", type: { kind: "string" } }],
        new Uint8Array(1),
      ),
    ).rejects.toThrow(/not a column list/);
    await insertRowBinary(ch, "rb.t", columns, new Uint8Array(0));
  });

  it("fails when the engine cannot read the bytes", async () => {
    await expect(insertRowBinary(ch, "rb.t", columns, new Uint8Array([1, 2, 3]))).rejects.toThrow(
      /Cannot read all data/,
    );
  });
});

describe("RowBinary strings", () => {
  const varint = (n: number) => (n < 128 ? 1 : n < 16_384 ? 2 : 3);
  it("are never cut short, wherever the buffer runs out", () => {
    const col = [{ name: "a", typeName: "String", type: { kind: "string" as const } }];
    // Three-byte characters: the UTF-8 length needs a longer varint than the length in characters.
    for (const s of ["✓".repeat(43), "✓".repeat(5_462), "é".repeat(64)]) {
      const n = Buffer.byteLength(s);
      for (let pad = 8_000; pad < 8_400; pad++) {
        const bytes = encodeRowBinary(col, [{ a: "x".repeat(pad) }, { a: s }]);
        expect(bytes.length).toBe(varint(pad) + pad + varint(n) + n);
        expect(Buffer.from(bytes.subarray(-n)).toString("utf8")).toBe(s);
      }
    }
  });
});

describe("column types", () => {
  it("reads every table of a migrated table set", async () => {
    await migrate(ch, "rbset");
    const tables = await readTableColumns(ch, "rbset");
    expect(tables.txs?.map((c) => c.name)).toEqual([
      "height",
      "idx",
      "txhash",
      "time",
      "code",
      "is_evm",
      "evm_hashes",
      "message_types",
      "addresses",
      "record",
    ]);
    expect(Object.keys(tables)).toEqual(
      expect.arrayContaining(["blocks", "progress", "token_holders"]),
    );
  });

  it("names a type it cannot write", () => {
    for (const t of [
      "Float64",
      "Int32",
      "Map(String, String)",
      "Decimal(38, 2)",
      "DateTime64(3, 'Europe/Paris')",
    ])
      expect(() => parseColumnType(t)).toThrow(UnsupportedColumnType);
    expect(parseColumnType("Array(Nullable(UInt8))")).toEqual({
      kind: "array",
      of: { kind: "nullable", of: { kind: "uint", bytes: 1 } },
    });
    // a Date is its days since 1970, two bytes
    expect(parseColumnType("Date")).toEqual({ kind: "uint", bytes: 2 });
  });
});
