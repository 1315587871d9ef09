import {
  MsgFundCommunityPool,
  MsgSetWithdrawAddress,
  MsgWithdrawDelegatorReward,
  MsgWithdrawValidatorCommission,
} from "cosmjs-types/cosmos/distribution/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";
import { valoper } from "./staking.ts";

/** Distribution: the four messages. Rewards exist because alice delegated in the staking step. */
export const distribution = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  await cosmosTx(ctx, "distribution set-withdraw-address", keys.alice, [
    {
      typeUrl: "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress",
      value: MsgSetWithdrawAddress.fromPartial({
        delegatorAddress: keys.alice.bech32,
        withdrawAddress: keys.bob.bech32,
      }),
    },
  ]);
  await cosmosTx(ctx, "distribution withdraw-delegator-reward", keys.alice, [
    {
      typeUrl: "/cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward",
      value: MsgWithdrawDelegatorReward.fromPartial({
        delegatorAddress: keys.alice.bech32,
        validatorAddress: valoper(ctx, "val0"),
      }),
    },
  ]);
  await cosmosTx(ctx, "distribution withdraw-validator-commission", keys.val0, [
    {
      typeUrl: "/cosmos.distribution.v1beta1.MsgWithdrawValidatorCommission",
      value: MsgWithdrawValidatorCommission.fromPartial({ validatorAddress: valoper(ctx, "val0") }),
    },
  ]);
  await cosmosTx(ctx, "distribution fund-community-pool", keys.alice, [
    {
      typeUrl: "/cosmos.distribution.v1beta1.MsgFundCommunityPool",
      value: MsgFundCommunityPool.fromPartial({
        depositor: keys.alice.bech32,
        amount: [{ denom: cfg.denom, amount: String(10n ** 18n) }],
      }),
    },
  ]);
  // Back to receiving its own rewards, so a re-run starts from the same settings.
  await cosmosTx(ctx, "distribution reset-withdraw-address", keys.alice, [
    {
      typeUrl: "/cosmos.distribution.v1beta1.MsgSetWithdrawAddress",
      value: MsgSetWithdrawAddress.fromPartial({
        delegatorAddress: keys.alice.bech32,
        withdrawAddress: keys.alice.bech32,
      }),
    },
  ]);
};
