import { describe, expect, it } from "vitest";
import { etherscanCache } from "./kept.ts";
import { named } from "./names.ts";

/** A request's module or action name picks a table's own entries only, wherever it is looked up. */
describe("names of modules and actions", () => {
  const table = { account: { txlist: 1 } };
  it("find a table's own entries, trimmed; Object's own keys name none", () => {
    expect(named(table, " account ")).toEqual({ txlist: 1 });
    expect(named(table.account, "txlist")).toBe(1);
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "", undefined])
      expect(named(table, name)).toBeUndefined();
    expect(named(table, ["account", "account"])).toBeUndefined(); // given twice
  });

  it("decide the answer cache's policy the same way", () => {
    expect(etherscanCache({ module: "account", action: "txlist" })).toBe("hot");
    expect(etherscanCache({ module: " account", action: "txlist " })).toBe("hot");
    expect(etherscanCache({ module: "account", action: "balance" })).toBe("none");
    for (const name of ["toString", "constructor", "__proto__"]) {
      expect(etherscanCache({ module: name, action: "txlist" })).toBe("none");
      expect(etherscanCache({ module: "account", action: name })).toBe("none");
    }
  });
});
