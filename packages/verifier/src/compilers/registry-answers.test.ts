import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { npmHasNo, npmWhy } from "./registry-answers.ts";

/** npm's own answers, recorded by tests/fixtures/record-registry-answers.ts (run it again after an npm upgrade). */
const recorded = JSON.parse(
  readFileSync(new URL("./registry-answers.fixtures.json", import.meta.url), "utf8"),
) as { asked: string; stderr: string; hasNo: boolean }[];

describe("npm's answers to the verifier", () => {
  it.each(recorded.map((a) => [a.asked, a] as const))("%s", (_, a) => {
    expect(npmHasNo(a.stderr)).toBe(a.hasNo);
    expect(npmWhy(a.stderr)).toMatch(/^npm error /);
  });

  it("why npm failed: its last lines that are not warnings", () => {
    const refused = recorded.find((a) => !a.hasNo)!;
    expect(npmWhy(`npm warn config something\n${refused.stderr}`)).toBe(npmWhy(refused.stderr));
    expect(npmWhy("")).toBe("no output");
  });
});
