import { describe, expect, it } from "vitest";
import { CHARTS } from "./charts.ts";
import { typeOf } from "./typed.ts";

const chart = (id: string) => CHARTS.get(id)!;

describe("typeOf", () => {
  it("takes a message type URL on newMessages, with or without its leading slash", () => {
    expect(typeOf(chart("newMessages"), "/cosmos.bank.v1beta1.MsgSend")).toEqual({
      kind: "messages",
      type: "/cosmos.bank.v1beta1.MsgSend",
    });
    expect(typeOf(chart("newMessages"), "cosmos.bank.v1beta1.MsgSend")).toEqual({
      kind: "messages",
      type: "/cosmos.bank.v1beta1.MsgSend",
    });
  });

  it("takes a token type on newTokenTransfers, any case, ERC-20 and ERC-721 for CFC's", () => {
    expect(typeOf(chart("newTokenTransfers"), "erc-1155")).toEqual({
      kind: "transfers",
      type: "ERC-1155",
    });
    expect(typeOf(chart("newTokenTransfers"), "ERC-20")).toEqual({
      kind: "transfers",
      type: "CFC-20",
    });
  });

  it("is an error for a malformed type, or on a chart it does not apply to; nothing without one", () => {
    expect(typeOf(chart("newMessages"), "MsgSend")).toMatch(/message type URL/);
    expect(typeOf(chart("newMessages"), "")).toMatch(/message type URL/);
    expect(typeOf(chart("newTokenTransfers"), "ERC-777")).toMatch(/token type/);
    expect(typeOf(chart("newTxns"), "/cosmos.bank.v1beta1.MsgSend")).toMatch(
      /does not apply to chart newTxns/,
    );
    expect(typeOf(chart("newMessages"), undefined)).toBeUndefined();
  });
});
