import type { EncodeObject } from "@cosmjs/proto-signing";
import { evmToBech32 } from "@explorer/chain";
import { getAddress, hexlify, type Interface, randomBytes, type TransactionRequest } from "ethers";

/** What a sender of the dense workload knows about itself between blocks. */
export interface SenderState {
  readonly index: number;
  readonly evm: string;
  readonly bech32: string;
  /** Its own CFC-20, CFC-721 collection and log emitter, deployed in the setup. */
  readonly token: string;
  readonly nft: string;
  readonly emitter: string;
  step: number;
  minted: bigint[];
  nextTokenId: bigint;
  delegated: boolean;
}

/** One transaction to sign: an EVM request (no nonce, no fees yet) or Cosmos messages. */
export type Planned =
  | { kind: string; evm: TransactionRequest; expect: "success" | "failure" }
  | { kind: string; cosmos: EncodeObject[]; gas: bigint; expect: "success" | "failure" };

export interface Abis {
  readonly token: Interface;
  readonly nft: Interface;
  readonly emitter: Interface;
}

export const CYCLE = 12;
const HUGE = 10n ** 30n;
const BANK = "/cosmos.bank.v1beta1.";
const coin = (denom: string, amount: bigint) => ({ denom, amount: String(amount) });
const freshEvm = () => getAddress(hexlify(randomBytes(20)));

/**
 * The next transaction of a sender, by its place in a cycle of 12 (senders start at different
 * places, so every block holds a mix). A CFC-721 transfer follows its sender's mint, a reward
 * withdrawal its delegation, a round later. The last place of a cycle is a deployment (a CFC-20
 * mint) or one of six failures, EVM and Cosmos, the failures' kinds in turn. Pure but for the
 * fresh addresses and the failures' count.
 */
export const nextAction = (
  s: SenderState,
  peer: SenderState,
  ctx: {
    abis: Abis;
    denom: string;
    validator: string;
    prefix: string;
    tokenDeploy: string;
    /** Failures planned so far, by all senders (the next one is of the next kind). */
    failures: { n: number };
  },
): Planned => {
  const step = (s.step + s.index) % CYCLE;
  const cycle = Math.floor((s.step + s.index) / CYCLE);
  s.step++;
  const { abis, denom } = ctx;
  const to = freshEvm();
  const send = (from: string, toAddr: string, amount: bigint) => ({
    typeUrl: `${BANK}MsgSend`,
    value: { fromAddress: from, toAddress: toAddr, amount: [coin(denom, amount)] },
  });
  const delegate = (validator: string, amount: bigint) => ({
    typeUrl: "/cosmos.staking.v1beta1.MsgDelegate",
    value: { delegatorAddress: s.bech32, validatorAddress: validator, amount: coin(denom, amount) },
  });
  const withdraw = (validator: string) => ({
    typeUrl: "/cosmos.distribution.v1beta1.MsgWithdrawDelegatorReward",
    value: { delegatorAddress: s.bech32, validatorAddress: validator },
  });
  const multi = (amount: bigint) => ({
    typeUrl: `${BANK}MsgMultiSend`,
    value: {
      inputs: [{ address: s.bech32, coins: [coin(denom, amount * 3n)] }],
      outputs: [peer.bech32, evmToBech32(freshEvm(), ctx.prefix), evmToBech32(to, ctx.prefix)].map(
        (address) => ({ address, coins: [coin(denom, amount)] }),
      ),
    },
  });
  const call = (kind: string, target: string, data: string, gasLimit: bigint, expect = "success") =>
    ({ kind, evm: { to: target, data, gasLimit }, expect }) as Planned;
  const cosmos = (kind: string, msgs: EncodeObject[], gas = 250_000n, expect = "success") =>
    ({ kind, cosmos: msgs, gas, expect }) as Planned;
  const mint = (): Planned => {
    const id = s.nextTokenId++;
    s.minted.push(id);
    return call(
      "cfc721 mint",
      s.nft,
      abis.nft.encodeFunctionData("mint", [s.evm, id, `data:,token-${s.index}-${id}`]),
      250_000n,
    );
  };
  switch (step) {
    case 0:
    case 9:
      return {
        kind: "evm transfer",
        evm: { to, value: 1_000_000_000n + BigInt(s.step), gasLimit: 21_000n },
        expect: "success",
      };
    case 1:
    case 10:
      return call(
        "cfc20 transfer",
        s.token,
        abis.token.encodeFunctionData("transfer", [peer.evm, 10n ** 15n]),
        80_000n,
      );
    case 2:
      return cosmos("bank send", [send(s.bech32, peer.bech32, 1000n)], 150_000n);
    case 3:
      return mint();
    case 4: {
      const id = s.minted.shift();
      if (id === undefined) return mint();
      return call(
        "cfc721 transfer",
        s.nft,
        abis.nft.encodeFunctionData("transferFrom", [s.evm, to, id]),
        120_000n,
      );
    }
    case 5:
      s.delegated = true;
      return cosmos("delegate", [delegate(ctx.validator, 10n ** 12n)]);
    case 6:
      if (!s.delegated) {
        s.delegated = true;
        return cosmos("delegate", [delegate(ctx.validator, 10n ** 12n)]);
      }
      return cosmos("withdraw rewards", [withdraw(ctx.validator)]);
    case 7:
      return cosmos("multi-send", [multi(500n)]);
    case 8:
      return call(
        "contract call with logs",
        s.emitter,
        abis.emitter.encodeFunctionData("emitMany", [2n, `0x${"ab".repeat(32)}`]),
        150_000n,
      );
    default: {
      // Of the senders at this place in a round (up to three), one deploys, the others fail.
      if ((2 * cycle + s.index) % 3 === 0)
        return {
          kind: "deployment (cfc20 mint)",
          evm: { data: ctx.tokenDeploy, gasLimit: 1_500_000n },
          expect: "success",
        };
      const badValidator = evmToBech32(freshEvm(), `${ctx.prefix}valoper`);
      const failures: (() => Planned)[] = [
        () =>
          call(
            "failure: cfc20 transfer over balance",
            s.token,
            abis.token.encodeFunctionData("transfer", [to, HUGE]),
            80_000n,
            "failure",
          ),
        () =>
          call(
            "failure: cfc721 transfer of a token not owned",
            s.nft,
            abis.nft.encodeFunctionData("transferFrom", [s.evm, to, 10n ** 9n]),
            120_000n,
            "failure",
          ),
        () =>
          cosmos(
            "failure: bank send over balance",
            [send(s.bech32, peer.bech32, HUGE)],
            150_000n,
            "failure",
          ),
        () => cosmos("failure: multi-send over balance", [multi(HUGE)], 250_000n, "failure"),
        () =>
          cosmos(
            "failure: delegation to no validator",
            [delegate(badValidator, 1000n)],
            250_000n,
            "failure",
          ),
        () =>
          cosmos(
            "failure: rewards of no delegation",
            [withdraw(badValidator)],
            250_000n,
            "failure",
          ),
      ];
      // by the sender too, so that a run of a few rounds already holds every kind
      // in turn across senders, so that a run of a few rounds already holds every kind
      return failures[ctx.failures.n++ % failures.length]!();
    }
  }
};
