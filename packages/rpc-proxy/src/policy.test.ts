import { describe, expect, it } from "vitest";
import { SPEC_METHODS } from "./availability.ts";
import { Policy, parseOverrides } from "./policy.ts";

describe("the SPEC's availability table", () => {
  const p = new Policy();

  it("maps every row to what the proxy does with it", () => {
    const expected = {
      public: "public",
      private: "private",
      "not-applicable": "unavailable",
      "not-implemented": "unavailable",
    } as const;
    for (const [method, mark] of SPEC_METHODS) {
      const access =
        mark === "implemented"
          ? method.startsWith("debug_")
            ? "private"
            : "public"
          : expected[mark];
      expect(p.decide(method).access, method).toBe(access);
    }
  });

  it("spells the SPEC's eth_getTransactionbyBlockNumberAndIndex as the node's method", () => {
    expect(p.decide("eth_getTransactionbyBlockNumberAndIndex")).toMatchObject({
      access: "public",
      method: "eth_getTransactionByBlockNumberAndIndex",
      safe: true,
    });
  });

  it("takes a namespace's access for methods the table does not list", () => {
    expect(p.decide("eth_chainId").access).toBe("public");
    expect(p.decide("personal_foo").access).toBe("private");
    expect(p.decide("debug_traceCall").access).toBe("private");
    expect(p.decide("admin_peers").access).toBe("unavailable");
    expect(p.decide("foo_bar").access).toBe("unavailable");
    expect(p.decide("nonamespace").access).toBe("unavailable");
  });

  it("knows which calls are safe to retry elsewhere", () => {
    expect(p.decide("eth_call").safe).toBe(true);
    expect(p.decide("eth_sendRawTransaction").safe).toBe(false);
    expect(p.decide("eth_newFilter").safe).toBe(false);
  });
});

describe("operator overrides", () => {
  it("a method rule wins over everything; a namespace rule over the SPEC's implemented rows", () => {
    const p = new Policy({
      methods: {
        eth_sendRawTransaction: "unavailable",
        debug_setHead: "private",
        admin_peers: "private",
      },
      namespaces: { debug: "public", eth: "private", admin: "public" },
    });
    expect(p.decide("eth_sendRawTransaction").access).toBe("unavailable");
    expect(p.decide("debug_traceTransaction").access).toBe("public");
    expect(p.decide("eth_blockNumber").access).toBe("private");
    // not implemented stays unavailable unless the operator names the method itself
    expect(p.decide("debug_verbosity").access).toBe("unavailable");
    expect(p.decide("debug_setHead").access).toBe("private");
    // so do the SPEC's not-implemented namespaces: a namespace rule does not open admin_ to anyone
    expect(p.decide("admin_addPeer")).toMatchObject({
      access: "unavailable",
      reason: "not implemented",
    });
    expect(p.decide("admin_peers").access).toBe("private");
  });

  it("a rule on either spelling of the SPEC's alias covers both", () => {
    for (const name of [
      "eth_getTransactionbyBlockNumberAndIndex",
      "eth_getTransactionByBlockNumberAndIndex",
    ]) {
      const p = new Policy({ methods: { [name]: "unavailable" } });
      expect(p.decide("eth_getTransactionbyBlockNumberAndIndex").access).toBe("unavailable");
      expect(p.decide("eth_getTransactionByBlockNumberAndIndex").access).toBe("unavailable");
    }
  });

  it("does not keep the decisions of long made-up names (memory a client could fill)", () => {
    const p = new Policy();
    const memo = (p as unknown as { memo: Map<string, unknown> }).memo;
    for (let i = 0; i < 20; i++)
      expect(p.decide(`x_${i}${"y".repeat(1 << 20)}`).access).toBe("unavailable");
    expect(memo.size).toBe(0);
    p.decide("eth_blockNumber");
    expect([...memo.keys()]).toEqual(["eth_blockNumber"]);
  });

  it("refuses a malformed policy document with a message naming the problem", () => {
    expect(() => parseOverrides([])).toThrow(/expected an object/);
    expect(() => parseOverrides({ rules: {} })).toThrow(/unknown section "rules"/);
    expect(() => parseOverrides({ methods: { eth_call: "open" } })).toThrow(
      /methods.eth_call is "open"; use "public", "private" or "unavailable"/,
    );
    expect(parseOverrides({ namespaces: { debug: "public" } })).toEqual({
      namespaces: { debug: "public" },
    });
  });
});
