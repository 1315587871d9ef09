import { describe, expect, it } from "vitest";
import { proxyShape } from "./proxy-shape.ts";

const IMPL = "0x1111111111111111111111111111111111111111";
const word = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;

describe("proxy shapes", () => {
  it("EIP-1167 by its code, EIP-1967, the beacon and EIP-1822 by their slots", () => {
    const minimal = `0x363d3d373d3d3d363d73${IMPL.slice(2)}5af43d82803e903d91602b57fd5bf3`;
    expect(proxyShape(minimal, {})).toEqual({ kind: "eip1167", target: IMPL });
    expect(proxyShape("0x6080", { eip1967: word(IMPL) })).toEqual({
      kind: "eip1967",
      target: IMPL,
    });
    expect(proxyShape("0x6080", { eip1967: "0x0", beacon: word(IMPL) })).toEqual({
      kind: "beacon",
      target: IMPL,
    });
    expect(proxyShape("0x6080", { eip1822: word(IMPL) })).toEqual({
      kind: "eip1822",
      target: IMPL,
    });
  });

  it("zero slots and other code are no proxy", () => {
    expect(
      proxyShape("0x6080", { eip1967: `0x${"0".repeat(64)}`, beacon: "0x", eip1822: null }),
    ).toBe(undefined);
    expect(proxyShape(`0x363d3d373d3d3d363d73${IMPL.slice(2)}5af43d`, {})).toBe(undefined);
  });
});
