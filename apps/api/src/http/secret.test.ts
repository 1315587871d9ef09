import { describe, expect, it } from "vitest";
import { sameSecret } from "./secret.ts";

describe("sameSecret", () => {
  it("matches the secret only", () => {
    expect(sameSecret("operator-token", "operator-token")).toBe(true);
    expect(sameSecret("operator-toke", "operator-token")).toBe(false);
    expect(sameSecret("operator-token ", "operator-token")).toBe(false);
    expect(sameSecret("", "operator-token")).toBe(false);
  });

  it("never matches when no secret is configured", () => {
    expect(sameSecret("", undefined)).toBe(false);
    expect(sameSecret("", "")).toBe(false);
    expect(sameSecret("anything", undefined)).toBe(false);
  });
});
