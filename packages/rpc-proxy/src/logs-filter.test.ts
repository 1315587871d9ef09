import { describe, expect, it } from "vitest";
import { parseLogQuery } from "./logs-filter.ts";

const A = "0x8C7017177D26425D6F1A7FEB6FBC2939E4DE805A";
const T = `0x${"Ab".repeat(32)}`;

describe("parseLogQuery (the node's reading of a filter)", () => {
  it("reads bounds: tags and missing bounds are the head, 0 is 1, hex without leading zeros", () => {
    expect(parseLogQuery([{ fromBlock: "0x0", toBlock: "latest" }])).toMatchObject({
      kind: "range",
      from: 1,
      to: "head",
    });
    for (const tag of ["earliest", "pending", "safe", "finalized", null, undefined])
      expect(parseLogQuery([{ fromBlock: tag, toBlock: "0x10" }])).toMatchObject({
        from: "head",
        to: 16,
      });
    for (const bad of ["0x01", "16", 16, "0x", "0xfffffffffffffffff", "latest "])
      expect(parseLogQuery([{ fromBlock: bad }]), String(bad)).toBeUndefined();
  });

  it("lowercases addresses and topics; null and empty lists are wildcards", () => {
    expect(parseLogQuery([{ address: A, topics: [T, null, [], [null, T]] }])).toMatchObject({
      addresses: [A.toLowerCase()],
      topics: [[T.toLowerCase()], null, null, null],
    });
    expect(parseLogQuery([{ topics: [null, [T, T.toLowerCase()]] }])).toMatchObject({
      addresses: [],
      topics: [null, [T.toLowerCase(), T.toLowerCase()]],
    });
  });

  it("matches keys case-insensitively, as Go does", () => {
    expect(parseLogQuery([{ FromBlock: "0x5", TOBLOCK: "0x6", Address: [A] }])).toMatchObject({
      from: 5,
      to: 6,
      addresses: [A.toLowerCase()],
    });
    expect(parseLogQuery([{ fromBlock: "0x5", FromBlock: "0x6" }])).toBeUndefined();
  });

  it("reads a block hash, and leaves a hash with a range to the node", () => {
    expect(parseLogQuery([{ blockhash: T }])).toMatchObject({
      kind: "hash",
      blockHash: T.toLowerCase(),
    });
    expect(parseLogQuery([{ blockHash: T, fromBlock: "0x1" }])).toBeUndefined();
    expect(parseLogQuery([{ blockHash: "0x12" }])).toBeUndefined();
  });

  it("leaves to the node whatever it would refuse", () => {
    for (const params of [
      [],
      [{}, {}],
      ["x"],
      [{ address: "0x12" }],
      [{ address: [A, 5] }],
      [{ topics: [T, T, T, T, T] }],
      [{ topics: "0x" }],
      [{ topics: [5] }],
      [{ topics: [["0x12"]] }],
    ])
      expect(parseLogQuery(params), JSON.stringify(params)).toBeUndefined();
    expect(parseLogQuery([{ topics: [T, T, T, T] }])).toBeDefined();
  });
});
