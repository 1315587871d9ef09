import { describe, expect, it } from "vitest";
import { transferBatch } from "./hex.ts";

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, "0");
/** ABI encoding of (uint256[] ids, uint256[] values), as a contract's TransferBatch data. */
const encode = (ids: number[], values: number[]) =>
  `0x${[
    word(64),
    word(64 + 32 * (ids.length + 1)),
    word(ids.length),
    ...ids.map(word),
    word(values.length),
    ...values.map(word),
  ].join("")}`;

describe("an ERC-1155 TransferBatch log's data", () => {
  it("gives its ids and values", () => {
    expect(transferBatch(encode([1, 2, 77], [10, 20, 5]))).toEqual({
      ids: [1n, 2n, 77n],
      values: [10n, 20n, 5n],
    });
    expect(transferBatch(encode([], []))).toEqual({ ids: [], values: [] });
  });

  it("is no batch when it declares more items than it holds (a crafted log: no rows invented)", () => {
    // 96 bytes that declare 200,000 items, and a length of 2^64
    expect(transferBatch(`0x${word(64)}${word(64)}${word(200_000)}`)).toBeUndefined();
    expect(transferBatch(`0x${word(64)}${word(64)}${word(2n ** 64n)}`)).toBeUndefined();
    const cut = encode([1, 2, 3], [1, 1, 1]);
    expect(transferBatch(cut.slice(0, -64))).toBeUndefined();
  });

  it("is no batch with offsets off the words or outside the data, or unequal lengths", () => {
    const good = encode([1, 2], [3, 4]).slice(2);
    expect(transferBatch(`0x${word(65)}${good.slice(64)}`)).toBeUndefined();
    expect(transferBatch(`0x${word(32 * 1000)}${good.slice(64)}`)).toBeUndefined();
    expect(transferBatch(`0x${word(2n ** 255n)}${good.slice(64)}`)).toBeUndefined();
    expect(transferBatch(encode([1, 2], [3]))).toBeUndefined();
    expect(transferBatch("0x")).toBeUndefined();
  });
});
