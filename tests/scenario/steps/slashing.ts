import { startNode, stopNode, waitFor } from "@explorer/infra";
import { MsgUnjail } from "cosmjs-types/cosmos/slashing/v1beta1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx } from "../send.ts";
import { stakingQuery, valoper } from "./staking.ts";

const unjailMsg = (ctx: Ctx) => ({
  typeUrl: "/cosmos.slashing.v1beta1.MsgUnjail",
  value: MsgUnjail.fromPartial({ validatorAddr: valoper(ctx, "val1") }),
});

const isJailed = async (ctx: Ctx) =>
  (await stakingQuery(ctx).staking.validator(valoper(ctx, "val1"))).validator.jailed;

/** Seconds until val1 may unjail, from x/slashing's signing info. */
const jailedUntil = async (ctx: Ctx): Promise<number> => {
  const r = await fetch(`${ctx.cfg.rest}/cosmos/slashing/v1beta1/signing_infos`);
  const infos = ((await r.json()) as { info: { jailed_until: string }[] }).info;
  return Math.max(...infos.map((i) => Date.parse(i.jailed_until)).filter(Number.isFinite));
};

const waitUntilUnjailable = async (ctx: Ctx) => {
  const until = await jailedUntil(ctx);
  const ms = until - Date.now() + 1500;
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
};

/**
 * Slashing: val1's node stops, so val1 stops signing and is jailed for downtime; an unjail before
 * the jail period ends fails; after it (node running again) the unjail succeeds.
 */
export const slashing = async (ctx: Ctx) => {
  if (await isJailed(ctx)) {
    ctx.log("val1 is jailed from an earlier run: unjailing first");
    await startNode(1);
    await waitUntilUnjailable(ctx);
    await cosmosTx(ctx, "slashing unjail (left over)", ctx.keys.val1, [unjailMsg(ctx)]);
  }
  ctx.log("stopping val1's node so that it misses blocks");
  await stopNode(1);
  await waitFor(
    "val1 to be jailed for downtime",
    async () => ((await isJailed(ctx)) ? true : undefined),
    120_000,
    500,
  );
  await cosmosTx(ctx, "slashing unjail too early", ctx.keys.val1, [unjailMsg(ctx)], "failure");
  await startNode(1);
  await waitUntilUnjailable(ctx);
  await cosmosTx(ctx, "slashing unjail", ctx.keys.val1, [unjailMsg(ctx)]);
};
