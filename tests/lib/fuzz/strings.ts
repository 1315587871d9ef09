import fc from "fast-check";

/**
 * Strings that have broken servers before: SQL and ClickHouse placeholders, path traversal, CRLF
 * and header injection, NUL, format strings, markup, prototype keys, odd numbers, odd Unicode
 * (BOM, bidi override, zero width, lone surrogates, case mappings that change length).
 */
export const INJECTIONS: readonly string[] = [
  "' OR 1=1--",
  "'; DROP TABLE explorer_1.txs; --",
  '" OR ""="',
  "1; SELECT * FROM system.users",
  "1)) OR ((1=1",
  "' UNION SELECT name FROM system.tables --",
  "{db}",
  "{p0:String}",
  "{a:UInt64}",
  "`",
  "\\",
  "\\'",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "%2e%2e%2f%2e%2e%2f",
  "....//....//",
  "/etc/passwd",
  "file:///etc/passwd",
  "\r\nSet-Cookie: injected=1",
  "\r\n\r\nHTTP/1.1 200 OK",
  "x\ny",
  "\u0000",
  "a\u0000b",
  "%s%s%s%n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  "${7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  '["a",1]',
  "[[[[",
  '{"__proto__":{"x":1}}',
  "-1",
  "-0",
  "0",
  "1e308",
  "1e-7",
  "1.5",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "1_000",
  "+1",
  " 1",
  "1 ",
  "9007199254740993",
  "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
  "１２３",
  "٣",
  "\ufeff",
  "\u202e",
  "\u200b",
  "é",
  "e\u0301",
  "𝕏",
  "👨‍👩‍👧",
  "\ud800",
  "\udfff",
  "\uffff",
  "\ufffd",
  "İ",
  "ß",
  "ﬀ",
  " ",
  "\t",
  ",",
  ",,,",
  "=",
  "&",
  "#",
  "?",
  "%",
  "+",
];

/** Percent-escapes that are not valid UTF-8 or not valid escapes at all. */
export const BAD_ESCAPES: readonly string[] = [
  "%",
  "%%",
  "%g1",
  "%1",
  "%ff",
  "%fe%ff",
  "%c3%28",
  "%ed%a0%80",
  "%c0%af",
  "%e0%80%af",
  "%f8%88%80%80%80",
  "%00",
  "%0d%0a",
  "%u0041",
];

/** Any string: injections, random text of every Unicode plane, long runs, and mixtures. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...INJECTIONS), weight: 4 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: "binary-ascii", maxLength: 40 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("a", "0", "%", "é", "'", "1,"), fc.integer({ min: 150, max: 3000 }))
      .map(([c, n]) => c.repeat(n)),
    weight: 1,
  },
  {
    arbitrary: fc
      .array(fc.constantFrom(...INJECTIONS), { minLength: 2, maxLength: 4 })
      .map((a) => a.join("")),
    weight: 1,
  },
);

/** Percent-encodes every UTF-8 byte of `s` except RFC 3986 unreserved characters (never throws). */
export const pct = (s: string): string => {
  let out = "";
  for (const b of Buffer.from(s, "utf8"))
    out += /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).padStart(2, "0").toUpperCase()}`;
  return out;
};

/**
 * `s` as sent raw where node:http lets it through: characters U+0021–U+00FF go out as single bytes
 * (U+0080–U+00FF are invalid UTF-8 on their own), the rest percent-encoded.
 */
export const rawish = (s: string): string =>
  [...s].map((c) => (/^[\u0021-\u00ff]$/.test(c) ? c : pct(c))).join("");

/** How a value is put into a URL: exactly (percent-encoded), raw bytes, or with broken escapes. */
export const encodedHostile: fc.Arbitrary<string> = fc.oneof(
  hostileString.map(pct),
  hostileString.map(rawish),
  fc
    .tuple(hostileString, fc.constantFrom(...BAD_ESCAPES), fc.nat({ max: 40 }))
    .map(([s, bad, at]) => {
      const e = pct(s);
      const i = Math.min(at, e.length);
      return e.slice(0, i).replace(/%[0-9A-F]?$/, "") + bad + e.slice(i);
    }),
);
