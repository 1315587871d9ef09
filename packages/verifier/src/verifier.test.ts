import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRelease } from "./catalogue.ts";
import { CompilerUnavailable } from "./errors.ts";
import { localSoljson } from "./test-fixtures.ts";
import { Verifier } from "./verifier.ts";

describe("verifier", () => {
  it("does not keep a build that proves to be another compiler (as npm's solc@0.8.1 is 0.8.0)", async () => {
    const release = findRelease("0.8.36")!;
    const builds = mkdtempSync(join(tmpdir(), "solc-builds-"));
    copyFileSync(localSoljson, join(builds, `soljson-${release.long}.js`)); // really 0.8.37
    const cacheDir = mkdtempSync(join(tmpdir(), "solc-cache-"));
    const verifier = new Verifier({ cacheDir, builds, npm: "/nonexistent/npm" });
    try {
      const e = await verifier
        .compile(release, {
          language: "Solidity",
          sources: { "A.sol": { content: "contract A {}" } },
        })
        .catch((x) => x);
      expect(e).toBeInstanceOf(CompilerUnavailable);
      expect(e.message).toMatch(/says it is 0\.8\.37.*SOLC_BUILDS/);
      expect(existsSync(join(cacheDir, release.long))).toBe(false);
    } finally {
      await verifier.close();
    }
  }, 120_000);
});
