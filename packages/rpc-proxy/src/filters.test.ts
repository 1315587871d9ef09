import { describe, expect, it } from "vitest";
import { unwrapFilterId, wrapFilterId } from "./filters.ts";

describe("filter ids naming their upstream", () => {
  it("round-trips the upstream and the node's id", () => {
    for (const [i, id] of [
      [0, "0x9d4c30f6bd0f0ac7a3c6bd6d3bbcbc4d"],
      [1, "0x0"],
      [239, "0xABCdef"],
    ] as const) {
      const wrapped = wrapFilterId(i, id)!;
      expect(unwrapFilterId(wrapped)).toEqual({ index: i, nodeId: id });
    }
  });

  it("gives ids that are quantities as the Ethereum JSON-RPC specification has them (no leading zero)", () => {
    const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
    for (const i of [0, 1, 15, 16, 239])
      for (const id of ["0x0", "0x1", "0x0a", "0x9d4c30f6bd0f0ac7a3c6bd6d3bbcbc4d"])
        expect(wrapFilterId(i, id), `${i} ${id}`).toMatch(QUANTITY);
    expect(wrapFilterId(0, "0x9d4c")).toBe("0x109d4c");
  });

  it("leaves ids of other shapes alone", () => {
    expect(wrapFilterId(0, "filter-1")).toBeUndefined();
    expect(wrapFilterId(240, "0x1")).toBeUndefined();
    expect(unwrapFilterId("0x009d4c")).toBeUndefined();
    expect(unwrapFilterId("0x1")).toBeUndefined();
    expect(unwrapFilterId(5)).toBeUndefined();
  });
});
