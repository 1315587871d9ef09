import { describe, expect, it } from "vitest";
import { credential } from "./credential.ts";

const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("credential", () => {
  it("reads a bearer token", () => {
    expect(credential("Bearer k-1")).toBe("k-1");
    expect(credential("bearer   k-1 ")).toBe("k-1");
  });

  it("reads the key from Basic: the password, or the user name when there is no password", () => {
    expect(credential(basic(":k-1"))).toBe("k-1");
    expect(credential(basic("anyone:k-1"))).toBe("k-1");
    expect(credential(basic("k-1:"))).toBe("k-1");
    expect(credential(basic("a:b:c"))).toBe("b:c");
  });

  it("carries none for other schemes and malformed values", () => {
    for (const h of [
      "",
      "Bearer",
      "Bearer a b",
      "k-1",
      "Token k-1",
      "Basic",
      "Basic !!!!",
      "Basic YTpi=", // length not a multiple of 4
      basic("no-colon"),
      basic(":"),
    ])
      expect(credential(h), h).toBeUndefined();
  });
});
