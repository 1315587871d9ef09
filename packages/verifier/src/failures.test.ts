import { describe, expect, it } from "vitest";
import { VerifyError } from "./errors.ts";
import type { VerifyRequest } from "./input.ts";
import { LOCAL_LONG, localVerifier } from "./test-fixtures.ts";
import { type CompilerOutput, verify } from "./verify.ts";

const request = (sourceCode: string): VerifyRequest => ({
  contractAddress: "0x00000000000000000000000000000000000000bb",
  sourceCode,
  codeFormat: "solidity-single-file",
  contractName: "A",
  compilerVersion: LOCAL_LONG,
  optimization: false,
  runs: 200,
});
const chain = { code: "0x6080604052600080fd", input: "" };

describe("why a verification failed", () => {
  it("a source that does not compile is compilation-failed, though the quoted line shows the pragma; a pragma this compiler does not meet is wrong-compiler", async () => {
    const verifier = localVerifier();
    try {
      const reason = (source: string) =>
        verifier.verify(request(source), chain).then(
          () => "verified",
          (e: VerifyError) => e.reason,
        );
      expect(
        await reason("pragma solidity ^0.8.0; contract A { function f() public { x = 1; } }"),
      ).toBe("compilation-failed");
      expect(await reason("pragma solidity ^0.8.0 contract A {}")).toBe("compilation-failed");
      expect(await reason("pragma solidity ^0.7.0; contract A {}")).toBe("wrong-compiler");
    } finally {
      await verifier.close();
    }
  }, 120_000);

  it("when the compiler fails while other settings are tried, the request may be tried again: not a mismatch", async () => {
    const out: CompilerOutput = {
      contracts: {
        "A.sol": {
          A: {
            abi: [],
            evm: { bytecode: { object: "6001" }, deployedBytecode: { object: "6002" } },
          },
        },
      },
    };
    let calls = 0;
    for (const failure of [
      new VerifyError("unavailable", "the compiler queue is full"),
      new VerifyError("compiler-failed", "the compiler ran out of time"),
    ]) {
      const e = await verify(request("contract A {}"), chain, async () => {
        if (calls++ % 2 === 0) return out; // the settings given: compiles, another code
        throw failure; // other settings: the compiler fails
      }).catch((x: unknown) => x);
      expect(e).toBe(failure);
    }
    // A guess that does not compile is no answer: the mismatch is said.
    const mismatch = await verify(request("contract A {}"), chain, async (_, input) => {
      if (input.settings?.optimizer?.enabled) throw new VerifyError("compilation-failed", "no");
      return out;
    }).catch((x: VerifyError) => x.reason);
    expect(mismatch).toBe("bytecode-mismatch");
  });
});
