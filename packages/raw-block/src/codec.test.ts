import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeRecord, encodeRecord, type LogRecord, RawBlockFormatError } from "./codec.ts";

const record = (memo: string) =>
  ({ v: 1, kind: "metadata", height: 7, tokens: { memo } }) as unknown as LogRecord;

describe("log record codec", () => {
  it.each([
    ["tiny", ""],
    ["larger than zlib's chunks", "ünï ✓ ".repeat(200_000)],
  ])("gives back the record it encoded (%s)", (_, memo) => {
    expect(decodeRecord(encodeRecord(record(memo)))).toEqual(record(memo));
  });

  it("reads a record inside a larger buffer (a view, as the log hands them out)", () => {
    const bytes = encodeRecord(record("view"));
    const big = new Uint8Array(bytes.length + 20);
    big.set(bytes, 10);
    expect(decodeRecord(big.subarray(10, 10 + bytes.length))).toEqual(record("view"));
  });

  it("refuses damaged bytes and other versions with a format error", () => {
    const bytes = encodeRecord(record("x"));
    const cut = bytes.subarray(0, bytes.length - 6);
    const badSize = Uint8Array.from(bytes);
    badSize[badSize.length - 1] = 0x7f;
    for (const b of [new Uint8Array([1, 2, 3]), cut, badSize])
      expect(() => decodeRecord(b)).toThrow(RawBlockFormatError);
    expect(() => decodeRecord(gzipSync(JSON.stringify({ v: 2 })))).toThrow(
      /unsupported record version 2/,
    );
  });
});
