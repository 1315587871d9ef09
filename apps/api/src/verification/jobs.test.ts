import { describe, expect, it } from "vitest";
import { Jobs, parseGuid } from "./jobs.ts";

const address = "0xE4FF6Eef1BDB72950Af4C7BdDd5C82D2149249A9";

describe("verification guids", () => {
  it("name the contract and the second they were submitted; two at once differ", () => {
    const jobs = new Jobs();
    const at = Date.parse("2026-11-24T10:00:00.750Z");
    const [a, b] = [jobs.start(address, at), jobs.start(address, at)];
    expect(a).toMatch(/^[0-9a-f]{56}$/);
    expect(a).not.toBe(b);
    expect(parseGuid(a)).toEqual({
      address: address.toLowerCase(),
      submittedAt: Date.parse("2026-11-24T10:00:00Z"),
    });
    for (const bad of ["", "0".repeat(50), `${a}0`, a.replace(/.$/, "g")])
      expect(parseGuid(bad)).toBeUndefined();
  });

  it("an outcome is kept only for a submission still held (at most 10,000)", () => {
    const jobs = new Jobs();
    const first = jobs.start(address);
    for (let i = 0; i < 10_000; i++) jobs.start(address);
    expect(jobs.get(first)).toBeUndefined();
    jobs.set(first, { kind: "pass" });
    expect(jobs.get(first)).toBeUndefined();
    const last = jobs.start(address);
    jobs.set(last, { kind: "pass" });
    expect(jobs.get(last)).toEqual({ kind: "pass" });
  });
});
