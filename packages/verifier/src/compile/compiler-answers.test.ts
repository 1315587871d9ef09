import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isUnknownEvmVersion, isWrongCompiler } from "./compiler-answers.ts";

const solc = createRequire(import.meta.url)("solc") as { compile: (input: string) => string };

/** The error messages of the compiler the `solc` dependency ships, for one source and settings. */
const messages = (source: string, settings: Record<string, unknown> = {}): string =>
  (
    (JSON.parse(
      solc.compile(
        JSON.stringify({
          language: "Solidity",
          sources: { "A.sol": { content: source } },
          settings,
        }),
      ),
    ).errors ?? []) as { severity: string; message: string }[]
  )
    .filter((e) => e.severity === "error")
    .map((e) => e.message)
    .join("\n");

describe("the compiler's answers", () => {
  it("a pragma that refuses this compiler", () => {
    const said = messages("pragma solidity 0.4.0;\ncontract A {}");
    expect(isWrongCompiler(said)).toBe(true);
    expect(isUnknownEvmVersion(said)).toBe(false);
  });

  it("an EVM version the compiler does not know", () => {
    const said = messages("contract A {}", { evmVersion: "future" });
    expect(isUnknownEvmVersion(said)).toBe(true);
    expect(isWrongCompiler(said)).toBe(false);
  });

  it("a source that does not compile is neither", () => {
    const said = messages("contract A { function f() { x = 1; } }");
    expect(said).not.toBe("");
    expect([isWrongCompiler(said), isUnknownEvmVersion(said)]).toEqual([false, false]);
  });
});
