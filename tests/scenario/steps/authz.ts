import { GenericAuthorization } from "cosmjs-types/cosmos/authz/v1beta1/authz";
import { MsgExec, MsgGrant, MsgRevoke } from "cosmjs-types/cosmos/authz/v1beta1/tx";
import { SendAuthorization } from "cosmjs-types/cosmos/bank/v1beta1/authz";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { AuthorizationType, StakeAuthorization } from "cosmjs-types/cosmos/staking/v1beta1/authz";
import { MsgDelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";
import { valoper } from "./staking.ts";

const GRANT = "/cosmos.authz.v1beta1.MsgGrant";

/** Authz: generic, send and stake authorizations; exec under two of them; revoke. */
export const authz = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  const { alice, bob, carol, dave } = keys;
  const expiration = { seconds: BigInt(Math.floor(Date.now() / 1000) + 86_400), nanos: 0 };
  const grant = (grantee: string, typeUrl: string, value: Uint8Array) => ({
    typeUrl: GRANT,
    value: MsgGrant.fromPartial({
      granter: alice.bech32,
      grantee,
      grant: { authorization: { typeUrl, value }, expiration },
    }),
  });
  await cosmosTx(ctx, "authz grant generic", alice, [
    grant(
      bob.bech32,
      "/cosmos.authz.v1beta1.GenericAuthorization",
      GenericAuthorization.encode({ msg: "/cosmos.gov.v1.MsgVote" }).finish(),
    ),
  ]);
  await cosmosTx(ctx, "authz grant send", alice, [
    grant(
      carol.bech32,
      "/cosmos.bank.v1beta1.SendAuthorization",
      SendAuthorization.encode(
        SendAuthorization.fromPartial({
          spendLimit: [{ denom: cfg.denom, amount: String(5n * 10n ** 18n) }],
          allowList: [dave.bech32],
        }),
      ).finish(),
    ),
  ]);
  await cosmosTx(ctx, "authz grant stake", alice, [
    grant(
      dave.bech32,
      "/cosmos.staking.v1beta1.StakeAuthorization",
      StakeAuthorization.encode(
        StakeAuthorization.fromPartial({
          allowList: { address: [valoper(ctx, "val0")] },
          authorizationType: AuthorizationType.AUTHORIZATION_TYPE_DELEGATE,
        }),
      ).finish(),
    ),
  ]);
  const send = MsgSend.fromPartial({
    fromAddress: alice.bech32,
    toAddress: dave.bech32,
    amount: [{ denom: cfg.denom, amount: String(10n ** 18n) }],
  });
  await cosmosTx(ctx, "authz exec send", carol, [
    {
      typeUrl: "/cosmos.authz.v1beta1.MsgExec",
      value: MsgExec.fromPartial({
        grantee: carol.bech32,
        msgs: [{ typeUrl: "/cosmos.bank.v1beta1.MsgSend", value: MsgSend.encode(send).finish() }],
      }),
    },
  ]);
  const delegate = MsgDelegate.fromPartial({
    delegatorAddress: alice.bech32,
    validatorAddress: valoper(ctx, "val0"),
    amount: { denom: cfg.denom, amount: String(10n ** 18n) },
  });
  await cosmosTx(ctx, "authz exec delegate", dave, [
    {
      typeUrl: "/cosmos.authz.v1beta1.MsgExec",
      value: MsgExec.fromPartial({
        grantee: dave.bech32,
        msgs: [
          {
            typeUrl: "/cosmos.staking.v1beta1.MsgDelegate",
            value: MsgDelegate.encode(delegate).finish(),
          },
        ],
      }),
    },
  ]);
  await cosmosTx(ctx, "authz revoke", alice, [
    {
      typeUrl: "/cosmos.authz.v1beta1.MsgRevoke",
      value: MsgRevoke.fromPartial({
        granter: alice.bech32,
        grantee: carol.bech32,
        msgTypeUrl: "/cosmos.bank.v1beta1.MsgSend",
      }),
    },
  ]);
};
