import { describe, expect, it } from "vitest";
import { Lru } from "./lru.ts";

/** The same bounds kept the obvious way: an array, most recently used last. */
class ArrayLru {
  entries: { key: number; value: number; weight: number }[] = [];
  constructor(
    readonly maxEntries: number,
    readonly maxWeight: number,
  ) {}
  private total = () => this.entries.reduce((s, e) => s + e.weight, 0);
  private take(key: number) {
    const i = this.entries.findIndex((e) => e.key === key);
    return i < 0 ? undefined : this.entries.splice(i, 1)[0];
  }
  private trim() {
    while (
      this.entries.length > this.maxEntries ||
      (this.total() > this.maxWeight && this.entries.length > 1)
    )
      this.entries.shift();
  }
  get(key: number) {
    const e = this.take(key);
    if (e) this.entries.push(e);
    return e?.value;
  }
  set(key: number, value: number, weight: number) {
    this.take(key);
    this.entries.push({ key, value, weight });
    this.trim();
  }
  weigh(key: number, weight: number) {
    const e = this.entries.find((x) => x.key === key);
    if (e) e.weight = weight;
    this.trim();
  }
  delete(key: number) {
    this.take(key);
  }
}

describe("Lru", () => {
  it("forgets the least recently used entry beyond the count", () => {
    const l = new Lru<string, number>(2);
    l.set("a", 1);
    l.set("b", 2);
    l.get("a");
    l.set("c", 3);
    expect([l.get("a"), l.get("b"), l.get("c")]).toEqual([1, undefined, 3]);
    expect(l.hits).toBe(3); // the first read of "a", then "a" and "c"
  });
  it("forgets entries beyond the total weight", () => {
    const l = new Lru<string, string>(100, 10);
    l.set("a", "x", 6);
    l.set("b", "y", 0);
    l.weigh("b", 6);
    expect(l.get("a")).toBeUndefined();
    expect(l.get("b")).toBe("y");
  });
  it("holds what an array kept in order of use holds, through random reads, writes and deletes", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const [maxEntries, maxWeight] of [
      [8, Number.POSITIVE_INFINITY],
      [50, 120],
      [1, 5],
    ] as const) {
      const l = new Lru<number, number>(maxEntries, maxWeight);
      const ref = new ArrayLru(maxEntries, maxWeight);
      for (let i = 0; i < 5_000; i++) {
        const key = rand(30);
        const op = rand(10);
        if (op < 5) expect(l.get(key)).toBe(ref.get(key));
        else if (op < 8) {
          const weight = rand(12);
          l.set(key, i, weight);
          ref.set(key, i, weight);
        } else if (op < 9) {
          const weight = rand(12);
          l.weigh(key, weight);
          ref.weigh(key, weight);
        } else {
          l.delete(key);
          ref.delete(key);
        }
        expect(l.size).toBe(ref.entries.length);
        expect(l.weight).toBe(ref.entries.reduce((s, e) => s + e.weight, 0));
      }
      // Same entries, same values, and the same order of use: evicting one by one agrees.
      for (const e of ref.entries) expect(l.get(e.key)).toBe(e.value);
    }
  });
});
