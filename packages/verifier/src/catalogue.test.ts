import { describe, expect, it } from "vitest";
import { findRelease, RELEASES } from "./catalogue.ts";
import { permitsRedistribution, spdxLicense } from "./license.ts";

describe("catalogue", () => {
  it("holds 0.4.10 … 0.8.28 and newer, newest first, each with an 8-hex commit", () => {
    const versions = RELEASES.map((r) => r.version);
    for (const [minor, last] of [
      [4, 26],
      [5, 17],
      [6, 12],
      [7, 6],
      [8, 28],
    ] as const)
      for (let p = minor === 4 ? 10 : 0; p <= last; p++)
        expect(versions).toContain(`0.${minor}.${p}`);
    expect(RELEASES[0]!.long).toBe("v0.8.37+commit.f401782d");
    expect(RELEASES.at(-1)!.long).toBe("v0.4.10+commit.f0d539ae");
    for (const r of RELEASES) expect(r.long).toMatch(/^v\d+\.\d+\.\d+\+commit\.[0-9a-f]{8}$/);
  });

  it("finds a release by long or short name; a wrong commit is not that release", () => {
    expect(findRelease("v0.8.28+commit.7893614a")?.version).toBe("0.8.28");
    expect(findRelease("0.5.17+commit.d19bba13.Emscripten.clang")?.long).toBe(
      "v0.5.17+commit.d19bba13",
    );
    expect(findRelease("0.6.12")?.long).toBe("v0.6.12+commit.27d51765");
    expect(findRelease("v0.8.28+commit.00000000")).toBeUndefined();
    expect(findRelease("0.9.0")).toBeUndefined();
    expect(findRelease("latest")).toBeUndefined();
  });
});

describe("licenses", () => {
  it("reads the SPDX identifier, and says which permit redistribution", () => {
    expect(spdxLicense("// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;")).toBe("MIT");
    expect(spdxLicense("/* SPDX-License-Identifier: GPL-3.0-or-later */")).toBe("GPL-3.0-or-later");
    expect(spdxLicense("pragma solidity ^0.8.0;")).toBe("");
    // An identifier missing from its line is none, not the next line's first word.
    expect(spdxLicense("// SPDX-License-Identifier:\npragma solidity ^0.8.0;")).toBe("");
    expect(spdxLicense("// SPDX-License-Identifier: MIT\nOR something")).toBe("MIT");
    expect(spdxLicense("// SPDX-License-Identifier: MIT OR Apache-2.0\n")).toBe(
      "MIT OR Apache-2.0",
    );
    expect(permitsRedistribution("MIT")).toBe(true);
    expect(permitsRedistribution("GPL-3.0-or-later")).toBe(true);
    expect(permitsRedistribution("MIT OR UNLICENSED")).toBe(true);
    expect(permitsRedistribution("MIT AND UNLICENSED")).toBe(false);
    expect(permitsRedistribution("UNLICENSED")).toBe(false);
    expect(permitsRedistribution("")).toBe(false);
  });
});
