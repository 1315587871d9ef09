import { describe, expect, it } from "vitest";
import { fromEtherscanForm, fromSpecBody } from "./request.ts";

const A = "0x5f3ff43ab5f26abb1d01076b384841f9284eb787";
const spec = {
  contractAddress: A.toUpperCase().replace("0X", "0x"),
  sourceCode: "contract C {}",
  contractName: "C",
  compilerVersion: "v0.8.28+commit.7893614a",
};

describe("verification requests", () => {
  it("the SPEC's body: runs under either name, evmVersion default, libraries, format recognised", () => {
    const r = fromSpecBody({
      ...spec,
      optimization: true,
      optimizationRuns: 999,
      evmVersion: "default",
      constructorArguments: "0xABCD",
      libraries: [{ name: "L", address: A }],
    });
    expect(r).toMatchObject({
      contractAddress: A,
      codeFormat: "solidity-single-file",
      optimization: true,
      runs: 999,
      evmVersion: undefined,
      constructorArguments: "abcd",
      libraries: [{ name: "L", address: A }],
    });
    const json = fromSpecBody({
      ...spec,
      sourceCode: JSON.stringify({ language: "Solidity", sources: {} }),
    });
    expect(json.codeFormat).toBe("solidity-standard-json-input");
    expect(fromSpecBody({ ...spec, evmVersion: "CANCUN" }).evmVersion).toBe("cancun");
  });

  it("says what is wrong with a bad body", () => {
    const reason = (b: Record<string, unknown>) => {
      try {
        fromSpecBody(b);
        return "accepted";
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(reason({ ...spec, sourceCode: undefined })).toBe("sourceCode is required");
    expect(reason({ ...spec, contractAddress: "0x12" })).toMatch(
      /contractAddress must be a 0x address/,
    );
    expect(reason({ ...spec, runs: 1, optimizationRuns: 2 })).toMatch(/differ/);
    expect(reason({ ...spec, optimization: "maybe" })).toMatch(/optimization must be a boolean/);
    expect(reason({ ...spec, constructorArguments: "0xabc" })).toMatch(/hex/);
    expect(reason({ ...spec, libraries: [{ name: "L" }] })).toMatch(/libraries\[0\]/);
    expect(reason({ ...spec, evmVersion: "future" })).toMatch(
      /evmVersion must be default or one of/,
    );
    // runs is a number, or digits (forms send text): not a boolean, not blanks
    for (const runs of [true, " ", "2x", 1.5, -1])
      expect(reason({ ...spec, runs }), String(runs)).toBe("runs must be a non-negative integer");
    expect(fromSpecBody({ ...spec, runs: " 200 " }).runs).toBe(200);
    // a name of blanks is no name
    expect(reason({ ...spec, contractName: "   " })).toBe("contractName is required");
    expect(reason({ ...spec, compilerVersion: " " })).toBe("compilerVersion is required");
  });

  it("Etherscan's form: both spellings of the constructor arguments, numbered libraries", () => {
    const form = {
      contractaddress: A,
      sourceCode: "{}",
      codeformat: "solidity-standard-json-input",
      contractname: "C.sol:C",
      compilerversion: "v0.8.28+commit.7893614a",
      optimizationUsed: "1",
      runs: "200",
      libraryname1: "L",
      libraryaddress1: A,
    };
    expect(fromEtherscanForm({ ...form, constructorArguements: "00ff" })).toMatchObject({
      codeFormat: "solidity-standard-json-input",
      contractName: "C.sol:C",
      optimization: true,
      runs: 200,
      constructorArguments: "00ff",
      libraries: [{ name: "L", address: A }],
    });
    expect(fromEtherscanForm({ ...form, constructorArguments: "0x11" }).constructorArguments).toBe(
      "11",
    );
    expect(() => fromEtherscanForm({ ...form, codeformat: "vyper" })).toThrow(/not supported/);
    // a library's name without its address (or the other way round) is refused, not dropped
    const { libraryaddress1: _, ...nameOnly } = form;
    expect(() => fromEtherscanForm({ ...nameOnly, libraryaddress2: A })).toThrow(
      /libraryname1 and libraryaddress1 go together/,
    );
  });
});
