import { describe, expect, it } from "vitest";
import { scanMembers } from "./raw-json.ts";

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
