import { AbiCoder, encodeBytes32String } from "ethers";
import { describe, expect, it } from "vitest";
import { decodeCallResult } from "./token-reads.ts";

const abi = AbiCoder.defaultAbiCoder();

describe("token reads", () => {
  it("name and symbol as strings, or as bytes32 as old tokens (MKR) return them", () => {
    expect(decodeCallResult("name", abi.encode(["string"], ["Scenario Token"]))).toBe(
      "Scenario Token",
    );
    expect(decodeCallResult("name", encodeBytes32String("Maker"))).toBe("Maker");
    expect(decodeCallResult("symbol", encodeBytes32String("MKR"))).toBe("MKR");
    // 32 bytes without a terminating zero, and bytes that are not UTF-8: no throw.
    expect(decodeCallResult("symbol", `0x${"41".repeat(32)}`)).toBe("A".repeat(32));
    expect(decodeCallResult("name", `0x${"ff".repeat(32)}`)).toBe("\uFFFD".repeat(32));
    expect(decodeCallResult("name", "0x")).toBeNull();
    expect(decodeCallResult("decimals", abi.encode(["uint8"], [18]))).toBe(18n);
  });
});
