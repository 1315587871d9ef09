import { describe, expect, it } from "vitest";
import { AddressError, addressForms, bech32ToEvm, evmToBech32 } from "./address.ts";

// val0 of the reference chain: `evmd keys show val0` prints this pair.
const evm = "0x29214813C525E5664AcB3886999a34Ed4fE36CE8";

describe("address forms", () => {
  it("round-trips between 0x and bech32", () => {
    const b = evmToBech32(evm, "cosmos");
    expect(b).toMatch(/^cosmos1[02-9ac-hj-np-z]{38}$/);
    expect(bech32ToEvm(b, "cosmos")).toBe(evm);
  });
  it("accepts either form, any hex case", () => {
    const b = evmToBech32(evm, "mx");
    expect(addressForms(evm.toLowerCase(), "mx")).toEqual({ evm, bech32: b });
    expect(addressForms(b, "mx")).toEqual({ evm, bech32: b });
  });
  it("refuses a wrong prefix, a bad checksum and garbage", () => {
    const b = evmToBech32(evm, "cosmos");
    expect(() => bech32ToEvm(b, "mx")).toThrow(AddressError);
    expect(() => bech32ToEvm(`${b.slice(0, -1)}q`)).toThrow(AddressError);
    expect(() => addressForms("0x1234", "mx")).toThrow(AddressError);
  });
});
