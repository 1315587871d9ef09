import { describe, expect, it } from "vitest";
import { packRow, unpackRow } from "./list-cut.ts";
import { FAMILIES, namesOf, type Row } from "./list-families.ts";
import { PackedRow } from "./packed-row.ts";
import { RowJson } from "./row-json.ts";

/** A row of the logs family with `v` in every column but the topics (an array of `topics`). */
const rowOf = (v: unknown, topics: unknown[] = []): Row =>
  Object.fromEntries(namesOf(FAMILIES.logs).map((n) => [n, n === "topics" ? topics : v]));

const hex = (bytes: number) =>
  `0x${Array.from({ length: bytes }, (_, i) => ((i * 37 + 11) % 256).toString(16).padStart(2, "0")).join("")}`;

// Values of every kind and size packRow keeps: short and long strings (MessagePack's fixstr,
// str8, str16), hex of whole bytes (kept as bytes: bin8, bin16), numbers of each width, and the
// strings JSON escapes.
const VALUES: unknown[] = [
  "",
  "0",
  "1700000000",
  "115792089237316195423570985008687907853269984665640564039457584007913129639935",
  "x".repeat(31),
  "y".repeat(32),
  "z".repeat(300),
  "0x",
  hex(4),
  hex(20),
  hex(32),
  hex(255),
  hex(256),
  hex(3000),
  "0xABCD", // not lowercase: kept as text
  "0xabc", // not whole bytes: kept as text
  0,
  1,
  127,
  128,
  255,
  256,
  65535,
  65536,
  4294967295,
  4294967296,
  2 ** 53 - 1,
  -1,
  -33,
  -200,
  -70000,
  1.5,
  'quote " backslash \\ tab \t newline \n nul \u0000',
  "ünïcødé ✓ 😀",
  null,
];

describe("a packed row read in place and written as JSON bytes", () => {
  const f = FAMILIES.logs;
  const names = namesOf(f);
  const topicsAt = names.indexOf("topics");

  it("writes each value as JSON.stringify writes the value the row gives back", () => {
    const w = new RowJson();
    const row = new PackedRow(names.length);
    for (const v of VALUES) {
      const packed = packRow(f, rowOf(v, [hex(32), v]), true);
      const back = unpackRow(f, packed, "");
      row.read(packed);
      for (let i = 0; i < names.length; i++) {
        if (i === topicsAt) continue;
        const text = back[names[i]!] === null ? "" : String(back[names[i]!]);
        expect(w.field(row, i).copy().toString()).toBe(JSON.stringify(text));
        expect(row.text(i)).toBe(text);
      }
      const items: string[] = [];
      row.items(topicsAt, new PackedRow(1), (t) => items.push(w.field(t, 0).copy().toString()));
      expect(items.map((s) => JSON.parse(s))).toEqual(
        (back.topics as unknown[]).map((t) => (t === null ? "" : String(t))),
      );
    }
  });

  it("writes a string's bytes that are not UTF-8 as Buffer#toString reads them (U+FFFD)", () => {
    const packed = Buffer.from(packRow(f, rowOf("abc"), true));
    packed[packed.indexOf("abc") + 1] = 0xff;
    const row = new PackedRow(names.length).read(packed);
    expect(row.text(0)).toBe("a\ufffdc");
    // the bytes themselves: a lone 0xff copied as it is would read back the same, yet not be UTF-8
    expect(new RowJson().field(row, 0).copy()).toEqual(Buffer.from(JSON.stringify("a\ufffdc")));
  });

  it("reads a value msgpackr writes for undefined as nil, and refuses what is not a row", () => {
    const row = new PackedRow(names.length);
    row.read(packRow(f, {}, true));
    expect(row.text(0)).toBe("");
    expect(() => row.read(Buffer.from([0x81, 0xa1, 0x61, 0x01]))).toThrow(/not an array/);
    expect(() => new PackedRow(3).read(packRow(f, rowOf("a"), true))).toThrow(/values, not 3/);
  });

  it("writes hex at any alignment and grows past its first buffer", () => {
    const w = new RowJson();
    const bytes = Buffer.from(hex(40_000).slice(2), "hex");
    for (const lead of ["", "a", "ab"]) {
      w.clear();
      if (lead) w.raw(Buffer.from(lead));
      w.hex(bytes, 3, bytes.length);
      expect(w.copy().toString()).toBe(`${lead}"0x${bytes.subarray(3).toString("hex")}"`);
    }
    for (let i = 0; i < 5; i++) w.quoted("0123456789".repeat(3000));
    expect(w.copy().length).toBe(5 * 30_002);
  });
});
