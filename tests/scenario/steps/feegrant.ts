import { QueryClient, setupFeegrantExtension } from "@cosmjs/stargate";
import type { EthKey } from "@explorer/chain";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { BasicAllowance, PeriodicAllowance } from "cosmjs-types/cosmos/feegrant/v1beta1/feegrant";
import { MsgGrantAllowance, MsgRevokeAllowance } from "cosmjs-types/cosmos/feegrant/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";

/** Feegrant: a basic and a periodic allowance, each used to pay a fee, then revoked. */
export const feegrant = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  const { alice, bob, carol } = keys;
  const q = QueryClient.withExtensions(ctx.cosmos.comet, setupFeegrantExtension);
  const coins = (milli: bigint) => [{ denom: cfg.denom, amount: String(milli * 10n ** 15n) }];
  const now = Math.floor(Date.now() / 1000);
  const revoke = (grantee: EthKey) =>
    cosmosTx(ctx, `feegrant revoke (${grantee === bob ? "basic" : "periodic"})`, alice, [
      {
        typeUrl: "/cosmos.feegrant.v1beta1.MsgRevokeAllowance",
        value: MsgRevokeAllowance.fromPartial({ granter: alice.bech32, grantee: grantee.bech32 }),
      },
    ]);
  // Leftovers of an interrupted earlier run would make the grants fail.
  for (const grantee of [bob, carol]) {
    const exists = await q.feegrant.allowance(alice.bech32, grantee.bech32).then(
      () => true,
      () => false,
    );
    if (exists) await revoke(grantee);
  }
  const basic = BasicAllowance.fromPartial({
    spendLimit: coins(1000n),
    expiration: { seconds: BigInt(now + 86_400), nanos: 0 },
  });
  await cosmosTx(ctx, "feegrant grant basic", alice, [
    {
      typeUrl: "/cosmos.feegrant.v1beta1.MsgGrantAllowance",
      value: MsgGrantAllowance.fromPartial({
        granter: alice.bech32,
        grantee: bob.bech32,
        allowance: {
          typeUrl: "/cosmos.feegrant.v1beta1.BasicAllowance",
          value: BasicAllowance.encode(basic).finish(),
        },
      }),
    },
  ]);
  const periodic = PeriodicAllowance.fromPartial({
    basic: BasicAllowance.fromPartial({ spendLimit: coins(2000n) }),
    period: { seconds: 60n, nanos: 0 },
    periodSpendLimit: coins(500n),
    periodCanSpend: coins(500n),
    periodReset: { seconds: BigInt(now + 60), nanos: 0 },
  });
  await cosmosTx(ctx, "feegrant grant periodic", alice, [
    {
      typeUrl: "/cosmos.feegrant.v1beta1.MsgGrantAllowance",
      value: MsgGrantAllowance.fromPartial({
        granter: alice.bech32,
        grantee: carol.bech32,
        allowance: {
          typeUrl: "/cosmos.feegrant.v1beta1.PeriodicAllowance",
          value: PeriodicAllowance.encode(periodic).finish(),
        },
      }),
    },
  ]);
  for (const grantee of [bob, carol]) {
    await cosmosTx(
      ctx,
      `bank send with fee paid by granter (${grantee === bob ? "basic" : "periodic"})`,
      grantee,
      [
        {
          typeUrl: "/cosmos.bank.v1beta1.MsgSend",
          value: MsgSend.fromPartial({
            fromAddress: grantee.bech32,
            toAddress: alice.bech32,
            amount: coins(1n),
          }),
        },
      ],
      "success",
      { granter: alice.bech32 },
    );
  }
  await revoke(bob);
  await revoke(carol);
};
