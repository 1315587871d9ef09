import { type EncodeObject, makeAuthInfoBytes, Registry } from "@cosmjs/proto-signing";
import {
  type AuthExtension,
  type DeliverTxResponse,
  defaultRegistryTypes,
  QueryClient,
  StargateClient,
  setupAuthExtension,
} from "@cosmjs/stargate";
import type { CometClient } from "@cosmjs/tendermint-rpc";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { PubKey } from "cosmjs-types/cosmos/crypto/secp256k1/keys";
import { MsgUnjail } from "cosmjs-types/cosmos/slashing/v1beta1/tx";
import { SignMode } from "cosmjs-types/cosmos/tx/signing/v1beta1/signing";
import { SignDoc, TxBody, TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { connectCometRetrying } from "./comet-rpc.ts";
import { ETH_SECP256K1_PUBKEY, type EthKey, signEthSecp256k1 } from "./keys.ts";

/** Every Cosmos message type the explorer knows, for encoding and decoding transactions. */
export const cosmosRegistry = (): Registry =>
  new Registry([...defaultRegistryTypes, ["/cosmos.slashing.v1beta1.MsgUnjail", MsgUnjail]]);

export interface TxOptions {
  readonly gas?: bigint;
  readonly memo?: string;
  /** Fee granter (feegrant) address. */
  readonly granter?: string;
}

/**
 * Signs Cosmos transactions with eth_secp256k1 keys (which cosmjs's own signing client cannot do)
 * and broadcasts them. A transaction that is included but fails is returned, not thrown: a non-zero
 * `code` is an answer. One refused at CheckTx throws (cosmjs's BroadcastTxError).
 */
export class CosmosTxClient {
  private readonly sequences = new Map<string, bigint>();

  private constructor(
    readonly comet: CometClient,
    readonly stargate: StargateClient,
    private readonly query: QueryClient & AuthExtension,
    readonly chainId: string,
    readonly registry: Registry,
    private readonly gasPrice: bigint,
    private readonly denom: string,
  ) {}

  static async connect(opts: {
    rpcUrl: string;
    denom: string;
    gasPrice?: bigint;
  }): Promise<CosmosTxClient> {
    const comet = await connectCometRetrying(opts.rpcUrl);
    const stargate = StargateClient.create(comet);
    const query = QueryClient.withExtensions(comet, setupAuthExtension);
    const chainId = await stargate.getChainId();
    return new CosmosTxClient(
      comet,
      stargate,
      query,
      chainId,
      cosmosRegistry(),
      opts.gasPrice ?? 20_000_000_000n,
      opts.denom,
    );
  }

  /** Account number and sequence, read from x/auth (a BaseAccount). */
  async account(address: string): Promise<{ accountNumber: bigint; sequence: bigint }> {
    const any = await this.query.auth.account(address);
    if (!any) throw new Error(`account ${address} does not exist on chain yet (fund it first)`);
    if (any.typeUrl !== "/cosmos.auth.v1beta1.BaseAccount")
      throw new Error(`unsupported account type ${any.typeUrl} for ${address}`);
    const acc = BaseAccount.decode(any.value);
    return { accountNumber: acc.accountNumber, sequence: acc.sequence };
  }

  /** Signs a tx offline (SIGN_MODE_DIRECT) with the given account number and sequence. */
  sign(
    key: EthKey,
    messages: readonly EncodeObject[],
    account: { accountNumber: bigint; sequence: bigint },
    opts: TxOptions = {},
  ): Uint8Array {
    const gas = opts.gas ?? 400_000n;
    const bodyBytes = TxBody.encode(
      TxBody.fromPartial({
        messages: messages.map((m) => this.registry.encodeAsAny(m)),
        memo: opts.memo ?? "",
      }),
    ).finish();
    const pubkey = {
      typeUrl: ETH_SECP256K1_PUBKEY,
      value: PubKey.encode({ key: key.publicKey }).finish(),
    };
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey, sequence: account.sequence }],
      [{ denom: this.denom, amount: String(gas * this.gasPrice) }],
      Number(gas),
      opts.granter,
      undefined,
      SignMode.SIGN_MODE_DIRECT,
    );
    const signDoc = SignDoc.fromPartial({
      bodyBytes,
      authInfoBytes,
      chainId: this.chainId,
      accountNumber: account.accountNumber,
    });
    const signature = signEthSecp256k1(key.privateKey, SignDoc.encode(signDoc).finish());
    return TxRaw.encode(
      TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [signature] }),
    ).finish();
  }

  async signAndBroadcast(
    key: EthKey,
    messages: readonly EncodeObject[],
    opts: TxOptions = {},
  ): Promise<DeliverTxResponse> {
    const { accountNumber, sequence: chainSeq } = await this.account(key.bech32);
    const local = this.sequences.get(key.bech32);
    const sequence = local !== undefined && local > chainSeq ? local : chainSeq;
    const txBytes = this.sign(key, messages, { accountNumber, sequence }, opts);
    try {
      const res = await this.stargate.broadcastTx(txBytes, 60_000, 200);
      this.sequences.set(key.bech32, sequence + 1n);
      return res;
    } catch (e) {
      this.sequences.delete(key.bech32);
      throw e;
    }
  }

  disconnect(): void {
    this.stargate.disconnect();
  }
}
