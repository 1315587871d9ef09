import { fromBase64, fromBech32, toBech32 } from "@cosmjs/encoding";
import { Decimal } from "@cosmjs/math";
import { QueryClient, setupStakingExtension } from "@cosmjs/stargate";
import type { TestAccountName } from "@explorer/infra";
import { consensusPubkey, startNode } from "@explorer/infra";
import { PubKey as Ed25519PubKey } from "cosmjs-types/cosmos/crypto/ed25519/keys";
import {
  MsgBeginRedelegate,
  MsgCreateValidator,
  MsgDelegate,
  MsgEditValidator,
  MsgUndelegate,
} from "cosmjs-types/cosmos/staking/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";

export const valoper = (ctx: Ctx, name: TestAccountName): string =>
  toBech32(`${ctx.cfg.prefix}valoper`, fromBech32(ctx.keys[name].bech32).data);

/** LegacyDec fields travel in protobuf as the integer of 18 decimals. */
const dec = (s: string) => Decimal.fromUserInput(s, 18).atomics;

export const stakingQuery = (ctx: Ctx) =>
  QueryClient.withExtensions(ctx.cosmos.comet, setupStakingExtension);

export const validatorExists = async (ctx: Ctx, name: TestAccountName): Promise<boolean> => {
  try {
    await stakingQuery(ctx).staking.validator(valoper(ctx, name));
    return true;
  } catch {
    return false;
  }
};

/**
 * Staking: a second validator (val1, on its own node so it can later stop signing) is created once;
 * then edit, delegate, redelegate and undelegate on every run.
 */
export const staking = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  const tokens = (n: bigint) => ({ denom: cfg.denom, amount: String(n * 10n ** 18n) });
  await startNode(1);
  if (!(await validatorExists(ctx, "val1"))) {
    const pk = consensusPubkey(1);
    await cosmosTx(
      ctx,
      "staking create-validator",
      keys.val1,
      [
        {
          typeUrl: "/cosmos.staking.v1beta1.MsgCreateValidator",
          value: MsgCreateValidator.fromPartial({
            description: {
              moniker: "val1",
              identity: "",
              website: "https://val1.example",
              securityContact: "val1@example.com",
              details: "second validator of the reference chain",
            },
            commission: { rate: dec("0.1"), maxRate: dec("0.2"), maxChangeRate: dec("0.01") },
            minSelfDelegation: "1",
            delegatorAddress: keys.val1.bech32,
            validatorAddress: valoper(ctx, "val1"),
            pubkey: {
              typeUrl: "/cosmos.crypto.ed25519.PubKey",
              value: Ed25519PubKey.encode({ key: fromBase64(pk.key) }).finish(),
            },
            value: tokens(10n),
          }),
        },
      ],
      "success",
      { gas: 600_000n },
    );
  } else ctx.log("val1 already exists: create-validator skipped");
  await cosmosTx(ctx, "staking edit-validator", keys.val1, [
    {
      typeUrl: "/cosmos.staking.v1beta1.MsgEditValidator",
      value: MsgEditValidator.fromPartial({
        description: {
          moniker: "val1",
          identity: "",
          website: "https://val1.example",
          securityContact: "val1@example.com",
          details: `edited at ${new Date().toISOString()}`,
        },
        validatorAddress: valoper(ctx, "val1"),
        commissionRate: "",
        minSelfDelegation: "",
      }),
    },
  ]);
  await cosmosTx(ctx, "staking delegate", keys.alice, [
    {
      typeUrl: "/cosmos.staking.v1beta1.MsgDelegate",
      value: MsgDelegate.fromPartial({
        delegatorAddress: keys.alice.bech32,
        validatorAddress: valoper(ctx, "val0"),
        amount: tokens(5n),
      }),
    },
  ]);
  await cosmosTx(ctx, "staking delegate to val1", keys.bob, [
    {
      typeUrl: "/cosmos.staking.v1beta1.MsgDelegate",
      value: MsgDelegate.fromPartial({
        delegatorAddress: keys.bob.bech32,
        validatorAddress: valoper(ctx, "val1"),
        amount: tokens(2n),
      }),
    },
  ]);
  await cosmosTx(ctx, "staking redelegate", keys.alice, [
    {
      typeUrl: "/cosmos.staking.v1beta1.MsgBeginRedelegate",
      value: MsgBeginRedelegate.fromPartial({
        delegatorAddress: keys.alice.bech32,
        validatorSrcAddress: valoper(ctx, "val0"),
        validatorDstAddress: valoper(ctx, "val1"),
        amount: tokens(1n),
      }),
    },
  ]);
  await cosmosTx(ctx, "staking undelegate", keys.alice, [
    {
      typeUrl: "/cosmos.staking.v1beta1.MsgUndelegate",
      value: MsgUndelegate.fromPartial({
        delegatorAddress: keys.alice.bech32,
        validatorAddress: valoper(ctx, "val0"),
        amount: tokens(1n),
      }),
    },
  ]);
};
