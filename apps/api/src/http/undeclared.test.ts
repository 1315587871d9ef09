import { describe, expect, it } from "vitest";
import { ROUTE_SPECS } from "../routes/specs.ts";
import { BadRequest } from "./errors.ts";
import { LIST_PARAMS, validateRequest } from "./spec.ts";
import { filterNames } from "./undeclared.ts";

const route = (path: string) => ROUTE_SPECS.find((r) => r.method === "get" && r.path === path)!;
const filters = filterNames(ROUTE_SPECS, LIST_PARAMS);
const TX = "0x13181fd51ca42c052eb6a69ed3ec25d3d7237f1d9d960f3fc0b6eda8be2e9b42";
const refusal = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return e;
  }
};

describe("a list and the filters of other routes", () => {
  it("refuses a filter it does not take instead of dropping it (/event-logs?txHash=…)", () => {
    const e = refusal(() =>
      validateRequest(route("/event-logs"), { txHash: TX }, {}, "cosmos", filters),
    );
    expect(e).toBeInstanceOf(BadRequest);
    expect((e as BadRequest).message).toBe(
      "/event-logs has no filter txHash; its filters: blockHash, originAddress, transactionHash, transactionIndex, blockNumber, from_height, to_height, contractAddress, from_date, to_date",
    );
    expect(() =>
      validateRequest(route("/event-logs"), { transactionHash: TX }, {}, "cosmos", filters),
    ).not.toThrow();
  });

  it("every list takes its own filters with page, limit, sort and format, refuses the others' and ignores unknown names", () => {
    for (const r of ROUTE_SPECS.filter((x) => x.list)) {
      const own = r.params.filter((p) => p.in === "query").map((p) => p.name);
      // names present, values empty: the kinds' checks pass, only the names are judged
      const every = Object.fromEntries(
        [...own, "page", "limit", "sort", "format"].map((n) => [n, ""]),
      );
      const ok = { ...every, _: "1700000000000", cacheBuster: "1", LIMIT: "5" };
      expect(() => validateRequest(r, ok, {}, "cosmos", filters), r.path).not.toThrow();
      for (const other of [...filters].filter((n) => !own.includes(n)))
        expect(
          () => validateRequest(r, { ...every, [other]: "" }, {}, "cosmos", filters),
          `${r.path} ${other}`,
        ).toThrow(BadRequest);
    }
  });

  it("leaves a single record's query alone (no filter there to drop)", () => {
    expect(() =>
      validateRequest(route("/txs/:hash"), { address: "x" }, { hash: TX }, "cosmos", filters),
    ).not.toThrow();
  });
});
