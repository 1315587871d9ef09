import { describe, expect, it } from "vitest";
import { VerifyError } from "./errors.ts";
import { parseStandardInput } from "./input.ts";

const input = (settings: unknown) =>
  JSON.stringify({ language: "Solidity", sources: { "A.sol": { content: "" } }, settings });

const refusal = (text: string) => {
  try {
    parseStandardInput(text);
  } catch (e) {
    expect(e).toBeInstanceOf(VerifyError);
    return `${(e as VerifyError).reason}: ${(e as Error).message}`;
  }
  return undefined;
};

describe("standard-JSON input settings", () => {
  it("refuses optimizer and EVM settings the record cannot hold, as the request's fault", () => {
    expect(refusal(input({ optimizer: { enabled: true, runs: 10_000_000_000 } }))).toBe(
      "invalid-request: settings.optimizer.runs must be a whole number from 0 to 4294967295",
    );
    for (const runs of [1.5, -1, "200", null])
      expect(refusal(input({ optimizer: { runs } }))).toMatch(/settings\.optimizer\.runs/);
    expect(refusal(input({ optimizer: { enabled: "yes" } }))).toMatch(/optimizer\.enabled/);
    expect(refusal(input({ optimizer: 5 }))).toMatch(/settings\.optimizer must be an object/);
    expect(refusal(input({ evmVersion: { x: 1 } }))).toMatch(/evmVersion must be a string/);
    expect(refusal(input([]))).toMatch(/`settings` must be an object/);
  });

  it("takes the bounds themselves and settings left out", () => {
    for (const settings of [
      undefined,
      {},
      { optimizer: { enabled: true, runs: 0 } },
      { optimizer: { runs: 2 ** 32 - 1 }, evmVersion: "cancun" },
    ])
      expect(refusal(input(settings))).toBeUndefined();
  });
});
