import { describe, expect, it } from "vitest";
import { CHARTS } from "./charts.ts";
import { scopeOf } from "./scope-params.ts";

const chart = (id: string) => CHARTS.get(id)!;
const account = { evm: "0x00000000000000000000000000000000000000aa", bech32: "cosmos1xyz" };

describe("a chart's scope", () => {
  it("binds the account in both forms, the token, the validator", () => {
    expect(scopeOf(chart("accountTxns"), { address: account })).toEqual({
      address: "cosmos1xyz",
      keys: [`a:${account.evm}`, "a:cosmos1xyz"],
    });
    expect(scopeOf(chart("tokenHolders"), { contractAddress: "0xab" })).toEqual({
      contract: "0xab",
    });
    expect(scopeOf(chart("validatorVotingPower"), { validator: "cosmosvaloper1x" })).toEqual({
      validator: "cosmosvaloper1x",
    });
    expect(scopeOf(chart("newTxns"), {})).toEqual({});
  });

  it("names the parameter a chart needs, or one it does not take", () => {
    expect(scopeOf(chart("accountBalance"), {})).toBe(
      "address is required by chart accountBalance",
    );
    expect(scopeOf(chart("newTxns"), { address: account })).toBe(
      "address does not apply to chart newTxns (it takes no scope)",
    );
    expect(
      scopeOf(chart("tokenTransfers"), { contractAddress: "0xab", validator: "cosmosvaloper1x" }),
    ).toBe("validator does not apply to chart tokenTransfers (it takes contractAddress)");
  });

  it("is declared by every scoped chart", () => {
    const scoped = [...CHARTS.values()].filter((c) => c.scope).map((c) => [c.id, c.scope]);
    expect(scoped).toEqual([
      ["accountTxns", "address"],
      ["accountBalance", "address"],
      ["tokenTransfers", "contractAddress"],
      ["tokenHolders", "contractAddress"],
      ["validatorSignedBlocks", "validator"],
      ["validatorMissedBlocks", "validator"],
      ["validatorVotingPower", "validator"],
    ]);
  });
});
