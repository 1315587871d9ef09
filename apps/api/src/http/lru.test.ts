import { describe, expect, it } from "vitest";
import { Lru } from "./lru.ts";

describe("Lru", () => {
  it("forgets the least recently used entry beyond the count", () => {
    const l = new Lru<string, number>(2);
    l.set("a", 1);
    l.set("b", 2);
    l.get("a");
    l.set("c", 3);
    expect([l.get("a"), l.get("b"), l.get("c")]).toEqual([1, undefined, 3]);
  });
  it("forgets entries beyond the total weight", () => {
    const l = new Lru<string, string>(100, 10);
    l.set("a", "x", 6);
    l.set("b", "y", 0);
    l.weigh("b", 6);
    expect(l.get("a")).toBeUndefined();
    expect(l.get("b")).toBe("y");
  });
});
