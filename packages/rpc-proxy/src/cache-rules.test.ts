import { describe, expect, it } from "vitest";
import { cacheKey, keepable } from "./cache-rules.ts";

const H = `0x${"ab".repeat(32)}`;

describe("answers that cannot change", () => {
  it("are asked by hash or by an explicit block number, never by tag", () => {
    expect(cacheKey("eth_getBlockByHash", [H, false])).toBeDefined();
    expect(cacheKey("eth_getBlockByNumber", ["0x12", true])).toBeDefined();
    expect(cacheKey("eth_getBlockByNumber", ["latest", true])).toBeUndefined();
    expect(cacheKey("eth_getTransactionReceipt", [H])).toBeDefined();
    expect(cacheKey("eth_getTransactionReceipt", [H, 1])).toBeUndefined();
    expect(cacheKey("eth_getBalance", ["0x1", "0x12"])).toBeUndefined();
    expect(cacheKey("eth_getBlockByHash", [H.toUpperCase().replace("0X", "0x"), false])).toBe(
      cacheKey("eth_getBlockByHash", [H, false]),
    );
  });

  it("are keyed by everything that changes the answer: block, hash, full-transactions flag", () => {
    const H2 = `0x${"cd".repeat(32)}`;
    // Equal calls share a key.
    expect(cacheKey("eth_getBlockByNumber", ["0x12", true])).toBe(
      cacheKey("eth_getBlockByNumber", ["0x12", true]),
    );
    expect(cacheKey("eth_getBlockByHash", [H, false])).toBe(
      cacheKey("eth_getBlockByHash", [H, false]),
    );
    // A different block number, block hash or full-transactions flag is a different answer.
    expect(cacheKey("eth_getBlockByNumber", ["0x12", true])).not.toBe(
      cacheKey("eth_getBlockByNumber", ["0x13", true]),
    );
    expect(cacheKey("eth_getBlockByHash", [H, false])).not.toBe(
      cacheKey("eth_getBlockByHash", [H2, false]),
    );
    expect(cacheKey("eth_getBlockByHash", [H, false])).not.toBe(
      cacheKey("eth_getBlockByHash", [H, true]),
    );
    expect(cacheKey("eth_getBlockByNumber", ["0x12", false])).not.toBe(
      cacheKey("eth_getBlockByNumber", ["0x12", true]),
    );
    expect(cacheKey("eth_getTransactionReceipt", [H])).not.toBe(
      cacheKey("eth_getTransactionReceipt", [H2]),
    );
    // The same parameters under another method are another answer.
    expect(cacheKey("eth_getTransactionByHash", [H])).not.toBe(
      cacheKey("eth_getTransactionReceipt", [H]),
    );
  });

  it("are kept only once final: not null, not a pending transaction", () => {
    expect(keepable("eth_getTransactionReceipt", "null")).toBe(false);
    expect(keepable("eth_getTransactionByHash", '{"blockNumber":null,"hash":"0x1"}')).toBe(false);
    expect(keepable("eth_getTransactionByHash", '{"blockNumber":"0x5","hash":"0x1"}')).toBe(true);
    expect(keepable("eth_getBlockByNumber", '{"number":"0x12"}')).toBe(true);
  });
});
