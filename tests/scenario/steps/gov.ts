import { referenceChain } from "@explorer/infra";
import { MsgExec } from "cosmjs-types/cosmos/authz/v1beta1/tx";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1/gov";
import {
  MsgDeposit,
  MsgSubmitProposal,
  MsgVote,
  MsgVoteWeighted,
} from "cosmjs-types/cosmos/gov/v1/tx";
import type { Ctx } from "../context.ts";
import { cosmosTx, eventAttr } from "../send.ts";

/**
 * Gov v1: a text proposal submitted with half the minimum deposit, completed by a deposit, then
 * a vote, a weighted vote, a vote through authz exec (grant from the authz step), and a weighted
 * vote whose weights sum to 1.5 (fails).
 */
export const gov = async (ctx: Ctx) => {
  const { keys, cfg } = ctx;
  const half = String(BigInt(referenceChain.minDeposit) / 2n);
  const res = await cosmosTx(
    ctx,
    "gov submit-proposal",
    keys.alice,
    [
      {
        typeUrl: "/cosmos.gov.v1.MsgSubmitProposal",
        value: MsgSubmitProposal.fromPartial({
          messages: [],
          initialDeposit: [{ denom: cfg.denom, amount: half }],
          proposer: keys.alice.bech32,
          metadata: "ipfs://scenario-proposal",
          title: `Scenario proposal ${new Date().toISOString()}`,
          summary: "A text proposal made by the explorer's test scenario.",
          expedited: false,
        }),
      },
    ],
    "success",
    { gas: 600_000n },
  );
  const id = BigInt(eventAttr(res, "submit_proposal", "proposal_id") ?? Number.NaN);
  await cosmosTx(ctx, "gov deposit", keys.bob, [
    {
      typeUrl: "/cosmos.gov.v1.MsgDeposit",
      value: MsgDeposit.fromPartial({
        proposalId: id,
        depositor: keys.bob.bech32,
        amount: [{ denom: cfg.denom, amount: half }],
      }),
    },
  ]);
  await cosmosTx(ctx, "gov vote", keys.val0, [
    {
      typeUrl: "/cosmos.gov.v1.MsgVote",
      value: MsgVote.fromPartial({
        proposalId: id,
        voter: keys.val0.bech32,
        option: VoteOption.VOTE_OPTION_YES,
        metadata: "",
      }),
    },
  ]);
  await cosmosTx(ctx, "gov weighted vote", keys.carol, [
    {
      typeUrl: "/cosmos.gov.v1.MsgVoteWeighted",
      value: MsgVoteWeighted.fromPartial({
        proposalId: id,
        voter: keys.carol.bech32,
        options: [
          { option: VoteOption.VOTE_OPTION_YES, weight: "0.6" },
          { option: VoteOption.VOTE_OPTION_NO_WITH_VETO, weight: "0.4" },
        ],
      }),
    },
  ]);
  const vote = MsgVote.fromPartial({
    proposalId: id,
    voter: keys.alice.bech32,
    option: VoteOption.VOTE_OPTION_ABSTAIN,
    metadata: "",
  });
  await cosmosTx(ctx, "authz exec vote", keys.bob, [
    {
      typeUrl: "/cosmos.authz.v1beta1.MsgExec",
      value: MsgExec.fromPartial({
        grantee: keys.bob.bech32,
        msgs: [{ typeUrl: "/cosmos.gov.v1.MsgVote", value: MsgVote.encode(vote).finish() }],
      }),
    },
  ]);
  await cosmosTx(
    ctx,
    "gov weighted vote with weights summing to 1.5",
    keys.dave,
    [
      {
        typeUrl: "/cosmos.gov.v1.MsgVoteWeighted",
        value: MsgVoteWeighted.fromPartial({
          proposalId: id,
          voter: keys.dave.bech32,
          options: [
            { option: VoteOption.VOTE_OPTION_YES, weight: "0.7" },
            { option: VoteOption.VOTE_OPTION_NO, weight: "0.8" },
          ],
        }),
      },
    ],
    "failure",
  );
  return id;
};
