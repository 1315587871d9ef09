import { describe, expect, it } from "vitest";
import { CHARTS } from "./charts.ts";
import { typeOf } from "./typed.ts";

const chart = (id: string) => CHARTS.get(id)!;

describe("typeOf", () => {
  it.each([
    ["newMessages", "/cosmos.bank.v1beta1.MsgSend", "messages", "/cosmos.bank.v1beta1.MsgSend"],
    ["newMessages", "cosmos.bank.v1beta1.MsgSend", "messages", "/cosmos.bank.v1beta1.MsgSend"],
    ["newTokenTransfers", "erc-1155", "transfers", "ERC-1155"],
    ["newTokenTransfers", "ERC-20", "transfers", "CFC-20"],
  ] as const)(
    "on %s takes %j as %s %s: a message type URL with or without its slash, a token type in any case (ERC-20 for CFC-20)",
    (id, given, kind, type) => {
      expect(typeOf(chart(id), given)).toEqual({ kind, type });
    },
  );

  it.each([
    ["newMessages", "MsgSend", /message type URL/],
    ["newMessages", "", /message type URL/],
    ["newTokenTransfers", "ERC-777", /token type/],
    ["newTxns", "/cosmos.bank.v1beta1.MsgSend", /does not apply to chart newTxns/],
  ] as const)(
    "on %s is an error for %j: malformed, or on a chart it does not apply to",
    (id, given, error) => {
      expect(typeOf(chart(id), given)).toMatch(error);
    },
  );

  it("is nothing without a type", () => {
    expect(typeOf(chart("newMessages"), undefined)).toBeUndefined();
  });
});
