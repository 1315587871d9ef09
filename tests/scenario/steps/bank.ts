import { MsgMultiSend, MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";

/** Bank: send, multi-send, and a send that fails for insufficient funds. */
export const bank = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  const coin = (amount: bigint) => [{ denom: cfg.denom, amount: String(amount) }];
  await cosmosTx(ctx, "bank send", keys.alice, [
    {
      typeUrl: "/cosmos.bank.v1beta1.MsgSend",
      value: MsgSend.fromPartial({
        fromAddress: keys.alice.bech32,
        toAddress: keys.bob.bech32,
        amount: coin(10n ** 18n),
      }),
    },
  ]);
  await cosmosTx(ctx, "bank multi-send", keys.alice, [
    {
      typeUrl: "/cosmos.bank.v1beta1.MsgMultiSend",
      value: MsgMultiSend.fromPartial({
        inputs: [{ address: keys.alice.bech32, coins: coin(3n * 10n ** 17n) }],
        outputs: [
          { address: keys.bob.bech32, coins: coin(10n ** 17n) },
          { address: keys.carol.bech32, coins: coin(2n * 10n ** 17n) },
        ],
      }),
    },
  ]);
  const balance = BigInt(
    (await ctx.cosmos.stargate.getBalance(keys.carol.bech32, cfg.denom)).amount,
  );
  await cosmosTx(
    ctx,
    "bank send beyond balance",
    keys.carol,
    [
      {
        typeUrl: "/cosmos.bank.v1beta1.MsgSend",
        value: MsgSend.fromPartial({
          fromAddress: keys.carol.bech32,
          toAddress: keys.bob.bech32,
          amount: coin(balance * 2n),
        }),
      },
    ],
    "failure",
  );
};
