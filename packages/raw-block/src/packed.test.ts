import { isUtf8 } from "node:buffer";
import { describe, expect, it } from "vitest";
import { JsonOut } from "./json-out.ts";
import { pack } from "./pack.ts";
import { key, Packed, PackedFormatError, unpack } from "./packed.ts";

const text = (p: Packed, at = 0) => {
  const out = new JsonOut(16);
  const end = p.json(at, out);
  expect(end).toBe(p.end(at));
  return Buffer.from(out.take()).toString("utf8");
};

/** Random JSON-like values: every type, escapes, non-ASCII, and sizes that need each head. */
const random = (seed: number) => {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const pieces = [
    "a",
    "ü",
    "✓",
    "😀",
    '"',
    "\\",
    "\n",
    "\t",
    "\u0001",
    "\u001f",
    "\u007f",
    "x".repeat(40),
  ];
  const str = (n: number) =>
    Array.from({ length: n }, () => pieces[(next() * pieces.length) | 0]).join("");
  const gen = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.35) {
      const k = (next() * 9) | 0;
      return [
        null,
        true,
        false,
        (next() * 300) | 0,
        -((next() * 40) | 0),
        next() * 1e6,
        2 ** 40 + 1,
        str((next() * 12) | 0),
        -(2 ** 35),
      ][k];
    }
    if (r < 0.7) return Array.from({ length: (next() * 6) | 0 }, () => gen(depth + 1));
    return Object.fromEntries(
      Array.from({ length: (next() * 6) | 0 }, () => [str(1 + ((next() * 4) | 0)), gen(depth + 1)]),
    );
  };
  return gen(0);
};

describe("MessagePack with JSON's meaning", () => {
  const cases: [string, unknown][] = [
    [
      "scalars",
      [
        null,
        true,
        false,
        0,
        127,
        128,
        255,
        256,
        65535,
        65536,
        2 ** 32 - 1,
        2 ** 32,
        -1,
        -32,
        -33,
        -(2 ** 31),
        -(2 ** 31) - 1,
        1.5,
        -0,
        2 ** 53,
      ],
    ],
    [
      "strings of every head size",
      [
        "",
        "a",
        "x".repeat(31),
        "x".repeat(32),
        "x".repeat(255),
        "x".repeat(256),
        "y".repeat(70_000),
        "ü".repeat(20),
        "ü".repeat(200),
      ],
    ],
    [
      "escapes",
      ['a"b', "a\\b", "\n\r\t\b\f", "\u0000\u0001\u001f", "\u2028\u2029", "\u007f", "😀"],
    ],
    [
      "maps and arrays of every head size",
      {
        small: [1, 2],
        a16: Array(20).fill(1),
        a32: Array(70_000).fill(0),
        m16: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])),
      },
    ],
    [
      "what JSON leaves out",
      {
        a: undefined,
        f: () => 1,
        s: Symbol("x"),
        arr: [undefined, () => 1],
        nan: Number.NaN,
        inf: Number.POSITIVE_INFINITY,
        date: new Date(0),
        keep: "y",
      },
    ],
    [
      "integer-like keys (the encoder takes JavaScript's order)",
      { b: 1, 2: "two", a: 3, 1: "one" },
    ],
  ];

  it.each(cases)("packs as JSON.stringify sees it and reads it back (%s)", (_, v) => {
    const json = JSON.stringify(v);
    expect(unpack(pack(v))).toEqual(JSON.parse(json));
    expect(text(new Packed(pack(v)))).toBe(json);
  });

  it("gives random values back, and their JSON text byte for byte", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const v = random(seed);
      const p = new Packed(pack(v));
      expect(p.value(0)).toEqual(JSON.parse(JSON.stringify(v)));
      expect(text(p)).toBe(JSON.stringify(v));
    }
  });

  it("is standard MessagePack, byte for byte", () => {
    const hex = (v: unknown) => Buffer.from(pack(v)).toString("hex");
    expect(hex({ a: 1 })).toBe("81a16101");
    expect(hex([true, false, null, -1, 200, 70000])).toBe("96c3c2c0ffccc8ce00011170");
    expect(hex("ü")).toBe("a2c3bc");
    expect(hex(1.5)).toBe("cb3ff8000000000000");
    expect(hex("x".repeat(40))).toBe(`d928${"78".repeat(40)}`);
    expect(hex(Array(16).fill(0))).toBe(`dc0010${"00".repeat(16)}`);
  });

  it("keeps a key named __proto__ as an own key, as JSON.parse does", () => {
    const v = JSON.parse('{"a":{"__proto__":{"x":1},"b":2}}');
    const back = unpack(pack(v)) as { a: Record<string, unknown> };
    expect(Object.hasOwn(back.a, "__proto__")).toBe(true);
    expect(JSON.stringify(back)).toBe(JSON.stringify(v));
    expect(Object.getPrototypeOf(back.a)).toBe(Object.prototype);
  });

  it("writes a lone surrogate as U+FFFD (UTF-8 cannot hold it; node answers never have one)", () => {
    expect(unpack(pack(["a\ud800b"]))).toEqual(["a\ufffdb"]);
  });

  it("refuses what has no JSON value", () => {
    expect(() => pack(undefined)).toThrow(TypeError);
    expect(() => pack({ a: 1n })).toThrow(/BigInt/);
  });
});

describe("JSON text of bytes that are not UTF-8", () => {
  it("is written as Buffer#toString reads them, U+FFFD for each bad sequence", () => {
    for (const bytes of [
      [0x61, 0xff, 0x62],
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xe2, 0x82],
    ]) {
      const packed = new Packed(Uint8Array.from([0xa0 | bytes.length, ...bytes]));
      const out = new JsonOut(16);
      packed.json(0, out);
      const written = Buffer.from(out.take());
      expect(isUtf8(written)).toBe(true);
      expect(written.toString("utf8")).toBe(JSON.stringify(Buffer.from(bytes).toString("utf8")));
    }
  });
});

describe("reading in place", () => {
  const v = {
    height: 7,
    body: { messages: [{ "@type": "/x.Msg", amount: "5" }], memo: "ü" },
    list: [1, "two", null],
  };
  const p = new Packed(pack(v));

  it("finds fields, items and strings without decoding the rest", () => {
    const body = p.field(0, key("body"));
    expect(p.value(body)).toEqual(v.body);
    expect(p.field(0, key("nope"))).toBe(-1);
    expect(p.field(p.field(0, key("height")), key("x"))).toBe(-1); // not a map
    const [h, l] = [p.field(0, key("height")), p.field(0, key("list"))];
    expect(p.value(h)).toBe(7);
    const [items, end] = p.itemsAndEnd(l);
    expect(items.map((i) => p.value(i))).toEqual(v.list);
    expect(end).toBe(p.end(l));
    const msg = p.itemsAndEnd(p.field(body, key("messages")))[0][0]!;
    const type = p.field(msg, key("@type"));
    expect(p.string(type)).toBe("/x.Msg");
    expect(p.is(type, key("/x.Msg"))).toBe(true);
    expect(p.startsWith(type, key("/x."))).toBe(true);
    expect(p.stringLength(type)).toBe(6);
    expect(p.string(h)).toBeUndefined();
    expect(text(p, body)).toBe(JSON.stringify(v.body));
  });

  it("refuses bytes that end too soon or types records do not use", () => {
    const bytes = pack(v);
    const cut = new Packed(bytes.subarray(0, bytes.length - 3));
    expect(() => cut.end(0)).toThrow(PackedFormatError);
    expect(() => text(cut)).toThrow(PackedFormatError);
    expect(() => new Packed(new Uint8Array([0xc1])).end(0)).toThrow(/type 0xc1/);
    expect(() => new Packed(new Uint8Array([0xd9, 10, 65])).string(0)).toThrow(PackedFormatError);
  });
});
