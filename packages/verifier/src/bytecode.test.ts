import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  bareHex,
  type LinkReferences,
  link,
  matchCreation,
  matchRuntime,
  metadataCompilerVersion,
  metadataHashRanges,
  type Range,
} from "./bytecode.ts";

interface Code {
  object: string;
  linkReferences: LinkReferences;
  immutableReferences: Record<string, Range[]>;
}

const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };

/** Real compiler output for a contract with an immutable and a library call. */
const compile = (comment: string) => {
  const content = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
library Lib { function twice(uint256 a) external pure returns (uint256) { return 2 * a; } }
contract C {
  uint256 public immutable seed;
  constructor(uint256 s) { seed = s; }
  function f(uint256 a) external view returns (uint256) { return Lib.twice(a) + seed; }
}
${comment}`;
  const out = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "C.sol": { content } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          outputSelection: { "*": { "*": ["evm.bytecode", "evm.deployedBytecode"] } },
        },
      }),
    ),
  );
  return out.contracts["C.sol"] as Record<
    string,
    { evm: { bytecode: Code; deployedBytecode: Code } }
  >;
};

const LIB = "11".repeat(20);
const linked = (c: Code) => bareHex(link(c.object, c.linkReferences, () => LIB));
/** What the chain would hold: the immutable written into the runtime code. */
const deployed = (c: Code, value: string) => {
  let code = linked(c);
  for (const r of Object.values(c.immutableReferences).flat())
    code = code.slice(0, r.start * 2) + value + code.slice((r.start + r.length) * 2);
  return code;
};

describe("bytecode matching", () => {
  const a = compile("");
  const b = compile("// a comment changes only the metadata hash");
  const seed = `${"00".repeat(31)}2a`;

  it("finds the metadata hash and the compiler version in the CBOR tail", () => {
    const code = linked(a.C!.evm.deployedBytecode);
    const ranges = metadataHashRanges(code);
    expect(ranges.length).toBe(1);
    expect(ranges[0]!.start + 32 + 10).toBeLessThanOrEqual(code.length / 2);
    expect(metadataCompilerVersion(code)).toBe("0.8.37");
    expect(metadataCompilerVersion("6080")).toBeUndefined();
  });

  it("runtime: full with immutables filled in, partial when only the metadata differs, else none", () => {
    const chain = deployed(a.C!.evm.deployedBytecode, seed);
    const imm = Object.values(a.C!.evm.deployedBytecode.immutableReferences).flat();
    expect(matchRuntime(linked(a.C!.evm.deployedBytecode), chain, imm)).toBe("full");
    expect(matchRuntime(linked(b.C!.evm.deployedBytecode), chain, imm)).toBe("partial");
    expect(matchRuntime(linked(a.C!.evm.deployedBytecode), chain, [])).toBeUndefined();
    const other = bareHex(
      link(a.C!.evm.deployedBytecode.object, a.C!.evm.deployedBytecode.linkReferences, () =>
        "22".repeat(20),
      ),
    );
    expect(matchRuntime(other, chain, imm)).toBeUndefined();
  });

  it("a library's own address (call protection) is not a difference", () => {
    const lib = linked(a.Lib!.evm.deployedBytecode);
    expect(lib.startsWith(`73${"00".repeat(20)}3014`)).toBe(true);
    const chain = `73${"ab".repeat(20)}${lib.slice(42)}`;
    expect(matchRuntime(lib, chain, [])).toBe("full");
  });

  it("creation: the input is the creation code followed by the constructor arguments", () => {
    const input = linked(a.C!.evm.bytecode) + seed;
    expect(matchCreation(linked(a.C!.evm.bytecode), input)).toEqual({ match: "full", args: seed });
    expect(matchCreation(linked(b.C!.evm.bytecode), input)).toEqual({
      match: "partial",
      args: seed,
    });
    expect(matchCreation(linked(a.C!.evm.bytecode), input.slice(0, 100))).toBeUndefined();
  });

  it("links old-style references (file:Library → positions) too", () => {
    const addressOf = (f: string, l: string) => (f === "F.sol" && l === "L" ? "cdcd" : "????");
    expect(link("aa____bb", { "F.sol:L": [{ start: 1, length: 2 }] }, addressOf)).toBe("aacdcdbb");
    expect(link("aa____bb", { "F.sol": { L: [{ start: 1, length: 2 }] } }, addressOf)).toBe(
      "aacdcdbb",
    );
    expect(() => bareHex("0x12__")).toThrow(/not hex/);
  });
});
