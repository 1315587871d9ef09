import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  decodeRecord,
  encodeRecord,
  type LogRecord,
  openRecord,
  RawBlockFormatError,
} from "./codec.ts";

const record = (memo: string) =>
  ({ v: 1, kind: "metadata", height: 7, tokens: { memo } }) as unknown as LogRecord;

describe("log record codec", () => {
  it.each([
    ["tiny", ""],
    ["larger than zlib's chunks", "ünï ✓ ".repeat(200_000)],
  ])("gives back the record it encoded (%s)", (_, memo) => {
    expect(decodeRecord(encodeRecord(record(memo)))).toEqual(record(memo));
    const packed = openRecord(encodeRecord(record(memo)));
    expect(packed.value(0)).toEqual(record(memo));
  });

  it("reads a record inside a larger buffer (a view, as the log hands them out)", () => {
    const bytes = encodeRecord(record("view"));
    const big = new Uint8Array(bytes.length + 20);
    big.set(bytes, 10);
    expect(decodeRecord(big.subarray(10, 10 + bytes.length))).toEqual(record("view"));
    expect(openRecord(big.subarray(10, 10 + bytes.length)).value(0)).toEqual(record("view"));
  });

  it("reads records of encoding 1 (gzip of the JSON text), which older logs hold", () => {
    const old = gzipSync(JSON.stringify(record("old ✓")));
    expect(decodeRecord(old)).toEqual(record("old ✓"));
    expect(openRecord(old).value(0)).toEqual(record("old ✓"));
  });

  it("writes smaller records than encoding 1 did", () => {
    const r = record(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, at: `x${i}` }))));
    expect(encodeRecord(r).length).toBeLessThan(gzipSync(JSON.stringify(r)).length);
  });

  it("refuses damaged bytes and other versions with a format error", () => {
    const bytes = encodeRecord(record("x".repeat(100)));
    const cut = bytes.subarray(0, bytes.length - 6);
    const badSize = Uint8Array.from(bytes);
    badSize[7] = (badSize[7]! + 1) & 0xff; // the declared length
    const oldCut = gzipSync(JSON.stringify(record("x"))).subarray(0, 20);
    for (const b of [new Uint8Array([1, 2, 3]), cut, badSize, oldCut]) {
      expect(() => decodeRecord(b)).toThrow(RawBlockFormatError);
      expect(() => openRecord(b)).toThrow(RawBlockFormatError);
    }
    const v2 = { v: 2, kind: "metadata" } as unknown as LogRecord;
    for (const b of [gzipSync(JSON.stringify(v2)), encodeRecord(v2)]) {
      expect(() => decodeRecord(b)).toThrow(/unsupported record version 2/);
      expect(() => openRecord(b)).toThrow(/unsupported record version 2/);
    }
  });
});
