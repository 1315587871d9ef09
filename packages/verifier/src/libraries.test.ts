import { describe, expect, it } from "vitest";
import { bareHex, type LinkReferences, link } from "./bytecode.ts";
import { findRelease } from "./catalogue.ts";
import type { StandardInput, VerifyRequest } from "./input.ts";
import { LOCAL_LONG, localVerifier } from "./test-fixtures.ts";
import type { Verifier } from "./verifier.ts";

/**
 * A contract calling an external library, deployed two ways: compiled without the library and
 * linked at deployment (hardhat), or compiled with `settings.libraries` (solc links it and writes
 * it into the metadata). hardhat-verify submits `settings.libraries` either way.
 */
const LIB = "0x00000000000000000000000000000000000000aa";
const input = (libraries?: Record<string, Record<string, string>>): StandardInput => ({
  language: "Solidity",
  sources: {
    "contracts/User.sol": {
      content: `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library MathLib { function twice(uint256 a) external pure returns (uint256) { return 2 * a; } }
contract User { function f(uint256 a) external pure returns (uint256) { return MathLib.twice(a); } }
`,
    },
  },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { "*": { "*": ["evm.bytecode", "evm.deployedBytecode"] } },
    ...(libraries ? { libraries } : {}),
  },
});
const named = { "contracts/User.sol": { MathLib: LIB } };

const request = (i: StandardInput): VerifyRequest => ({
  contractAddress: "0x00000000000000000000000000000000000000bb",
  sourceCode: JSON.stringify(i),
  codeFormat: "solidity-standard-json-input",
  contractName: "contracts/User.sol:User",
  compilerVersion: LOCAL_LONG,
});

/** What deploying User compiled from `i` leaves, the library linked at LIB if solc did not. */
const deployed = async (verifier: Verifier, i: StandardInput) => {
  const out = await verifier.compile(findRelease(LOCAL_LONG)!, i);
  const c = out.contracts!["contracts/User.sol"]!.User!;
  const linked = (o: { object?: string; linkReferences?: LinkReferences }) =>
    bareHex(link(o.object!, o.linkReferences ?? {}, () => LIB.slice(2)));
  return { code: linked(c.evm!.deployedBytecode!), input: linked(c.evm!.bytecode!) };
};

describe("libraries named in a standard-JSON input's settings", () => {
  it("a full match whether the library was linked at deployment (hardhat) or by solc; the record names it", async () => {
    const verifier = localVerifier();
    try {
      const atDeployment = await deployed(verifier, input());
      const bySolc = await deployed(verifier, input(named));
      expect(atDeployment.code).not.toBe(bySolc.code); // the metadata differs
      for (const chain of [atDeployment, bySolc]) {
        const v = await verifier.verify(request(input(named)), chain);
        expect(v.match).toBe("full");
        expect(v.libraries).toEqual([{ name: "contracts/User.sol:MathLib", address: LIB }]);
        expect(JSON.parse(v.sourceCode).settings.libraries).toEqual(named); // kept as submitted
      }
      // Given twice (settings and the request's list): once in the record.
      const both = await verifier.verify(
        { ...request(input(named)), libraries: [{ name: "MathLib", address: LIB }] },
        atDeployment,
      );
      expect(both.match).toBe("full");
      expect(both.libraries).toEqual([{ name: "MathLib", address: LIB }]);
    } finally {
      await verifier.close();
    }
  }, 120_000);
});
