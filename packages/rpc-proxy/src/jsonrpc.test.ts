import { describe, expect, it } from "vitest";
import { classify, ERR, parseBody, refuseAll } from "./jsonrpc.ts";

describe("classify (geth's reading of a message)", () => {
  it("calls have version 2.0, a method and an id that is not an object or array", () => {
    for (const id of [1, "a", null, true, 1.5])
      expect(classify({ jsonrpc: "2.0", id, method: "eth_chainId" }).kind).toBe("call");
  });

  it("notifications have no id member", () => {
    expect(classify({ jsonrpc: "2.0", method: "eth_chainId" })).toEqual({
      kind: "notification",
      method: "eth_chainId",
      params: undefined,
    });
  });

  it("anything else is invalid, with its id when the id is valid", () => {
    expect(classify({ jsonrpc: "2.0", id: 1 })).toEqual({ kind: "invalid", hasId: true });
    expect(classify({ jsonrpc: "1.0", id: 1, method: "m" })).toEqual({
      kind: "invalid",
      hasId: true,
    });
    expect(classify({ id: 1, method: "m" })).toEqual({ kind: "invalid", hasId: true });
    expect(classify({ jsonrpc: "2.0", id: 1, method: 5 })).toEqual({
      kind: "invalid",
      hasId: true,
    });
    expect(classify({ jsonrpc: "2.0", id: { a: 1 }, method: "m" })).toEqual({
      kind: "invalid",
      hasId: false,
    });
    expect(classify({ jsonrpc: "2.0", method: "" })).toEqual({ kind: "invalid", hasId: false });
    for (const v of ["hello", 1, null, [1]])
      expect(classify(v)).toEqual({ kind: "invalid", hasId: false });
  });

  it("responses sent to the server are recognised (and later ignored)", () => {
    expect(classify({ jsonrpc: "2.0", id: 1, result: "0x1" }).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: 1, error: { code: 1 } }).kind).toBe("response");
  });
});

describe("parseBody", () => {
  it("tells parse errors, single messages and batches apart", () => {
    expect(parseBody('{"jsonrpc":').kind).toBe("parse-error");
    expect(parseBody('{"jsonrpc":"2.0","id":1,"method":"m"}').kind).toBe("single");
    const b = parseBody('[{"jsonrpc":"2.0","id":1,"method":"m"},1]');
    expect(b.kind === "batch" && b.messages.map((m) => m.kind)).toEqual(["call", "invalid"]);
  });

  it("JSON nested deeper than Go's decoder takes (10,000 levels) is a parse error, as geth reads it", () => {
    const call = (levels: number) =>
      `{"jsonrpc":"2.0","id":1,"method":"m","params":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    expect(parseBody(call(10_000)).kind).toBe("single");
    expect(parseBody(call(10_001)).kind).toBe("parse-error");
    expect(parseBody(`[${call(10_000)}]`).kind).toBe("parse-error");
  });
});

describe("refuseAll", () => {
  it("answers a single call with its id, and each call of a batch with its own", () => {
    const single = '{"jsonrpc":"2.0","id":99999999999999999999,"method":"m"}';
    expect(JSON.parse(refuseAll(single, parseBody(single), ERR.LIMIT, "slow down")).error).toEqual({
      code: -32005,
      message: "slow down",
    });
    expect(refuseAll(single, parseBody(single), ERR.LIMIT, "x")).toContain(
      '"id":99999999999999999999',
    );
    const batch =
      '[{"jsonrpc":"2.0","id":"a","method":"m"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"m"}]';
    const out = JSON.parse(refuseAll(batch, parseBody(batch), ERR.LIMIT, "x")) as { id: unknown }[];
    expect(out.map((o) => o.id)).toEqual(["a", 2]);
  });
});
