import { describe, expect, it } from "vitest";
import type { VerifiedRow } from "../verification/submit.ts";
import { sourceCodeResult } from "./verified.ts";

const row = (code_format: string, source_code: string): VerifiedRow => ({
  address: "0x00000000000000000000000000000000000000aa",
  contract_name: "A",
  file_name: "A.sol",
  compiler_version: "v0.8.37+commit.f401782d",
  code_format,
  source_code,
  optimization: 1,
  runs: 200,
  evm_version: "default",
  constructor_arguments: "",
  libraries: '[{"name":"a.sol:L","address":"0x00000000000000000000000000000000000000bb"}]',
  abi: "[]",
  match: "full",
  license: "MIT",
  verified_at: "2026-01-01 00:00:00.000",
  height: 5,
});

describe("getsourcecode's item", () => {
  it("a standard-JSON input is wrapped in {{…}} as Etherscan gives it, whatever whitespace was submitted around it", () => {
    const input = '{"language":"Solidity","sources":{}}';
    for (const submitted of [input, `${input}\n`, `\n  ${input}\r\n`]) {
      const r = sourceCodeResult(row("solidity-standard-json-input", submitted));
      expect(r.SourceCode).toBe(`{${input}}`);
      expect(JSON.parse(r.SourceCode.slice(1, -1))).toEqual(JSON.parse(input));
    }
    expect(sourceCodeResult(row("solidity-single-file", "contract A {}\n")).SourceCode).toBe(
      "contract A {}\n",
    );
    expect(sourceCodeResult(row("solidity-single-file", "")).Library).toBe(
      "a.sol:L:00000000000000000000000000000000000000bb",
    );
  });
});
