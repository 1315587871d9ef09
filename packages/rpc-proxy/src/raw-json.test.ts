import { describe, expect, it } from "vitest";
import { compactJson, nestedDeeperThan, scanMembers, withFirstElement } from "./raw-json.ts";

const KEYS = new Set(["id", "params", "result"]);

describe("scanMembers", () => {
  it("keeps ids byte for byte, whatever their type", () => {
    for (const id of [
      "123456789012345678901234567890",
      "1.50",
      "1e2",
      '"a\\"b"',
      "null",
      "true",
      "-0",
    ]) {
      const [m] = scanMembers(`{"jsonrpc":"2.0","id":${id},"method":"x"}`, KEYS);
      expect(m?.get("id")).toBe(id);
    }
  });

  it("skips nested values, strings with brackets and escapes", () => {
    const text = ` { "params" : [ {"a":"]}\\\\"}, [1,[2]] ] , "method":"m\\"}", "id" : 7 } `;
    const [m] = scanMembers(text, KEYS);
    expect(m?.get("params")).toBe('[ {"a":"]}\\\\"}, [1,[2]] ]');
    expect(m?.get("id")).toBe("7");
  });

  it("reads escaped keys as JSON.parse does, and keeps the last of duplicate keys", () => {
    const [m] = scanMembers('{"\\u0069d":1,"id":2}', KEYS);
    expect(m?.get("id")).toBe("2");
    expect(scanMembers('{"\\u0069d":1}', KEYS)[0]?.get("id")).toBe("1");
  });

  it("gives one record per array element, empty for elements that are not objects", () => {
    const out = scanMembers('[{"id":1},2,"x",{"result":{"k":[1]}},{}]', KEYS);
    expect(out.map((m) => Object.fromEntries(m))).toEqual([
      { id: "1" },
      {},
      {},
      { result: '{"k":[1]}' },
      {},
    ]);
    expect(scanMembers("[]", KEYS)).toEqual([]);
  });
});

describe("nestedDeeperThan", () => {
  const deep = (n: number) => `{"a":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;

  it("counts levels as Go's decoder does (the outer value is 1), brackets in strings not", () => {
    expect(nestedDeeperThan(deep(10_000), 10_000)).toBe(false);
    expect(nestedDeeperThan(deep(10_001), 10_000)).toBe(true);
    expect(nestedDeeperThan(`["${"[".repeat(20_000)}"]`, 10_000)).toBe(false);
    expect(
      nestedDeeperThan(
        `[${'"\\\\",'.repeat(5000)}${"[".repeat(10_000)}${"]".repeat(10_000)}]`,
        10_000,
      ),
    ).toBe(true);
    expect(nestedDeeperThan(`[${"[],".repeat(20_000)}[]]`, 10_000)).toBe(false);
  });
});

describe("compactJson", () => {
  it("drops whitespace between tokens and keeps strings as they are", () => {
    expect(compactJson(' [ "newHeads" , { "a b" : [ 1 , "\\\\" ] } ]\n')).toBe(
      '["newHeads",{"a b":[1,"\\\\"]}]',
    );
    const plain = '["logs",{"address":"0x1"}]';
    expect(compactJson(plain)).toBe(plain);
  });

  it("takes any depth", () => {
    const d = `[ ${"[".repeat(100_000)}${"]".repeat(100_000)} ]`;
    expect(compactJson(d)).toBe(`[${"[".repeat(100_000)}${"]".repeat(100_000)}]`);
  });
});

describe("withFirstElement", () => {
  it("replaces the first element and keeps the rest byte for byte", () => {
    expect(withFirstElement('["0x00ab", {"a" : 1.50}]', '"0xab"')).toBe('["0xab", {"a" : 1.50}]');
    expect(withFirstElement(' [ "x" ]', "1")).toBe("[1 ]");
    expect(withFirstElement("[]", '"y"')).toBe('["y"]');
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    expect(withFirstElement(`["0x00ab",${deep}]`, '"0xab"')).toBe(`["0xab",${deep}]`);
  });
});
