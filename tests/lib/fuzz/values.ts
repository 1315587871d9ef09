import { fromBech32, toBech32 } from "@cosmjs/encoding";
import type { Kind, ParamSpec } from "@explorer/api";
import fc from "fast-check";
import { hostileString } from "./strings.ts";

/** Values found in the index (so that valid requests also hit rows), by parameter kind or name. */
export interface ValuePool {
  readonly prefix: string;
  readonly accounts: readonly string[];
  readonly validators: readonly string[];
  readonly contracts: readonly string[];
  readonly cosmosTxHashes: readonly string[];
  readonly evmHashes: readonly string[];
  readonly heights: readonly number[];
  readonly tokenIds: readonly string[];
  readonly symbols: readonly string[];
  readonly messageTypes: readonly string[];
  /** Values that only a handler knows (e.g. the rich list's coin symbols), by parameter name. */
  readonly byName: Readonly<Record<string, readonly string[]>>;
}

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));
const fromPool = <T>(pool: readonly T[], other: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  pool.length ? fc.oneof(fc.constantFrom(...pool), other) : other;
const anyCase = (s: fc.Arbitrary<string>) =>
  fc.tuple(s, fc.constantFrom("lower", "upper", "mixed")).map(([v, c]) => {
    if (c === "lower") return v.toLowerCase();
    if (c === "upper") return v.toUpperCase();
    return [...v].map((x, i) => (i % 2 ? x.toUpperCase() : x.toLowerCase())).join("");
  });

const account = (p: ValuePool) =>
  fromPool(
    p.accounts,
    fc.oneof(
      hex(20).map((h) => `0x${h}`),
      anyCase(hex(20).map((h) => `0x${h}`)).map((s) => `0x${s.slice(2)}`),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toBech32(p.prefix, b)),
    ),
  );
/** A validator: its operator address, or its operator's account in either form (same bytes). */
const validator = (p: ValuePool) =>
  fromPool(
    p.validators,
    fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toBech32(`${p.prefix}valoper`, b)),
  ).chain((v) => {
    const bytes = fromBech32(v).data;
    return fc.constantFrom(v, toBech32(p.prefix, bytes), `0x${Buffer.from(bytes).toString("hex")}`);
  });
/** A contract's address: 0x (any case) or its bech32 form, as for accounts. */
const contract = (p: ValuePool) =>
  fromPool(
    p.contracts,
    fc.oneof(
      anyCase(hex(20)).map((h) => `0x${h}`),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toBech32(p.prefix, b)),
    ),
  ).chain((a) =>
    fc.constantFrom(
      a,
      /^0x/i.test(a) ? toBech32(p.prefix, Buffer.from(a.slice(2), "hex")) : a.toUpperCase(),
    ),
  );
const evmHash = (p: ValuePool) =>
  fromPool(
    p.evmHashes,
    hex(32).map((h) => `0x${h}`),
  );
const txHash = (p: ValuePool) => fc.oneof(evmHash(p), fromPool(p.cosmosTxHashes, anyCase(hex(32))));
const positive = (p: ValuePool) =>
  fromPool(
    p.heights.map(String),
    fc
      .oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 999_999_999_999_999 }))
      .map(String),
  );
const tokenId = (p: ValuePool) =>
  fromPool(p.tokenIds, fc.oneof(fc.nat().map(String), fc.stringMatching(/^[0-9]{1,78}$/)));
const listOf = (item: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.array(item, { minLength: 1, maxLength: 5 }).map((a) => a.join(",")),
    fc.array(item, { minLength: 1, maxLength: 5 }).map((a) => JSON.stringify(a)),
    fc.array(item, { minLength: 2, maxLength: 5 }), // repeated parameter
  );

/** A value every parameter of this kind accepts (the API must never answer it with a 400). */
export const validValue = (s: ParamSpec, p: ValuePool): fc.Arbitrary<string | string[]> => {
  const named = p.byName[s.name];
  if (named?.length) return fc.constantFrom(...named);
  const kinds: Record<Kind, () => fc.Arbitrary<string | string[]>> = {
    int: () =>
      fc
        .integer({ min: s.min ?? 0, max: s.max ?? 999_999_999_999_999 })
        .chain((n) => fc.constantFrom(String(n), String(Math.min(n, 1000)))),
    height: () => positive(p),
    bool: () => fc.constantFrom("true", "false", "1", "0"),
    string: () =>
      fromPool(
        p.symbols,
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }).filter((v) => v.trim() !== ""),
      ),
    account: () => account(p),
    accounts: () => listOf(account(p)),
    validator: () => validator(p),
    validators: () => listOf(validator(p)),
    contract: () => contract(p),
    txHash: () => txHash(p),
    txHashes: () => listOf(txHash(p)),
    evmHash: () => evmHash(p),
    tokenId: () => tokenId(p),
    tokenIds: () => listOf(tokenId(p)),
    // a package path and a name (http/spec.ts)
    messageType: () =>
      fromPool(
        p.messageTypes,
        fc.stringMatching(/^\/?[A-Za-z0-9_]{1,20}(\.[A-Za-z0-9_]{1,20}){1,3}$/),
      ),
    enum: () => anyCase(fc.constantFrom(...s.values!)),
    day: () =>
      fc
        .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    enumList: () =>
      listOf(
        fc.oneof(
          fc.constantFrom(...s.values!),
          fc.constantFrom(...s.values!).map((v) => v.replace(/^BOND_STATUS_/, "").toLowerCase()),
        ),
      ),
    date: () =>
      fc
        .date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2100-01-01T00:00:00Z"),
          noInvalidDate: true,
        })
        .chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().slice(0, 10))),
  };
  return kinds[s.kind]();
};

/** Characters outside every identifier alphabet the API takes (never blank, never a separator). */
const alien = fc.constantFrom(
  "'",
  '"',
  ";",
  "%",
  "<",
  "(",
  "{",
  "\\",
  "|",
  "!",
  "*",
  "=",
  "~",
  "é",
  "\u0000",
  "\u202e",
  "𝕏",
  "\ufffd",
  "-",
  "@",
);
/** A string with at least one alien character somewhere: no identifier, number or hash. */
const withAlien = fc
  .tuple(
    fc.stringMatching(/^[0-9a-zA-Z]{0,70}$/),
    alien,
    hostileString.filter((s) => s.length < 500), // the URL stays under 16 KiB
  )
  .map(([a, b, c]) => `${a}${b}${c.replaceAll(",", "")}`);

const mutateOne = (v: string) =>
  fc.nat({ max: v.length - 1 }).map((i) => {
    const c = v[i]!;
    const alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const other = alphabet[(alphabet.indexOf(c.toLowerCase()) + 1) % alphabet.length]!;
    return v.slice(0, i) + other + v.slice(i + 1);
  });

/**
 * A value no parameter of this kind accepts, by construction (not by asking the parser): the API
 * must answer 400 naming the parameter. Blank values are left out (a blank parameter is absent).
 */
export const invalidValue = (s: ParamSpec, p: ValuePool): fc.Arbitrary<string | string[]> => {
  const hexWrong = (prefix: string, len: number) =>
    fc.oneof(
      fc
        .integer({ min: 1, max: 130 })
        .filter((n) => n !== len)
        .chain((n) => fc.stringMatching(new RegExp(`^${prefix}[0-9a-f]{${n}}$`))),
      withAlien.map((w) => `${prefix}${w}`),
    );
  const bech32Wrong = (prefix: string, lengthMatters: boolean) =>
    fc.oneof(
      fc
        .uint8Array({ minLength: 20, maxLength: 20 })
        .chain((b) =>
          mutateOne(toBech32(prefix, b).slice(prefix.length + 1)).map((d) => `${prefix}1${d}`),
        ),
      ...(lengthMatters
        ? [
            fc
              .uint8Array({ minLength: 1, maxLength: 40 })
              .filter((b) => b.length !== 20)
              .map((b) => toBech32(prefix, b)),
          ]
        : []),
      fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toBech32("osmo", b)),
      withAlien,
    );
  const numberWrong = (min: number, max: number | undefined) =>
    fc.oneof(
      withAlien,
      fc.constantFrom("-1", "1.5", "1e3", "0x10", "+1", " 1", "1 ", "NaN", "１"),
      ...(min > 0 ? [fc.integer({ min: 0, max: min - 1 }).map(String)] : []),
      ...(max !== undefined ? [fc.integer({ min: max + 1, max: max + 10_000 }).map(String)] : []),
    );
  const listWrong = (item: fc.Arbitrary<string>) =>
    fc.oneof(
      item,
      fc.tuple(fc.array(item, { maxLength: 2 }), item).map(([a, b]) => [...a, b].join(",")),
      fc.array(item, { minLength: 1, maxLength: 3 }),
      fc.constantFrom("[1,2]", '["a",{}]', "[", '{"a":1}'),
      fc.constant(Array.from({ length: 101 }, (_, i) => String(i + 1)).join(",")),
    );
  const kinds: Record<Kind, () => fc.Arbitrary<string | string[]>> = {
    int: () => numberWrong(s.min ?? 0, s.max),
    height: () => numberWrong(1, undefined),
    bool: () => fc.oneof(withAlien, fc.constantFrom("TRUE", "yes", "2", "on", "tru", "true ")),
    // longer than the parameter takes, yet short enough for a URL (Node's 16 KB of headers)
    string: () => {
      const most = s.maxLength ?? 200;
      return fc.string({
        unit: "grapheme-ascii",
        minLength: most + 1,
        maxLength: Math.min(most + 1300, 4500),
      });
    },
    account: () => fc.oneof(bech32Wrong(p.prefix, true), hexWrong("0x", 40)),
    accounts: () => listWrong(fc.oneof(bech32Wrong(p.prefix, true), hexWrong("0x", 40))),
    validator: () => fc.oneof(bech32Wrong(`${p.prefix}valoper`, false), hexWrong("0x", 40)),
    validators: () => listWrong(bech32Wrong(`${p.prefix}valoper`, false)),
    contract: () => fc.oneof(bech32Wrong(p.prefix, true), hexWrong("0x", 40)),
    txHash: () => fc.oneof(hexWrong("0x", 64), hexWrong("", 64)),
    txHashes: () => listWrong(fc.oneof(hexWrong("0x", 64), hexWrong("", 64))),
    evmHash: () => fc.oneof(hexWrong("0x", 64), hex(32)),
    tokenId: () => fc.oneof(withAlien, fc.stringMatching(/^[1-9][0-9]{78,90}$/)),
    tokenIds: () => listWrong(fc.oneof(withAlien, fc.stringMatching(/^[1-9][0-9]{78,90}$/))),
    messageType: () =>
      fc.oneof(withAlien, fc.constantFrom("MsgSend", "/MsgSend", ".", "/", "a..b", "a.", ".a")),
    enum: () => fc.oneof(withAlien, fc.constantFrom("CFC20", "ERC-20", "BONDED ", "x")),
    day: () => fc.oneof(withAlien, fc.constantFrom("2026-02-30", "2026-1-01", "20260101", "x")),
    enumList: () => listWrong(withAlien),
    date: () =>
      fc.oneof(
        withAlien,
        fc.constantFrom("2026-02-30", "2026-13-01", "2026-1-1", "1700000000", "2026-11-28T25:00Z"),
      ),
  };
  return kinds[s.kind]();
};
