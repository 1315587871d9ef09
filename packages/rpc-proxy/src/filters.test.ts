import { describe, expect, it } from "vitest";
import { unwrapFilterId, wrapFilterId } from "./filters.ts";

describe("filter ids naming their upstream", () => {
  it("round-trips the upstream and the node's id", () => {
    for (const [i, id] of [
      [0, "0x9d4c30f6bd0f0ac7a3c6bd6d3bbcbc4d"],
      [1, "0x0"],
      [255, "0xABCdef"],
    ] as const) {
      const wrapped = wrapFilterId(i, id)!;
      expect(unwrapFilterId(wrapped)).toEqual({ index: i, nodeId: id });
    }
  });

  it("leaves ids of other shapes alone", () => {
    expect(wrapFilterId(0, "filter-1")).toBeUndefined();
    expect(wrapFilterId(256, "0x1")).toBeUndefined();
    expect(unwrapFilterId("0x1")).toBeUndefined();
    expect(unwrapFilterId(5)).toBeUndefined();
  });
});
