/**
 * RawBlock v1: everything any projection needs for height H, so that projectors never call the
 * node. Node answers are kept as the node gave them (JSON), except where noted, so that a new
 * projection can use a field nobody thought of yet, and a replay is byte-for-byte deterministic.
 */
export const RAW_BLOCK_VERSION = 1 as const;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface Coin {
  readonly denom: string;
  readonly amount: string;
}

export interface RawBlockV1 {
  readonly v: typeof RAW_BLOCK_VERSION;
  readonly chainId: string;
  readonly height: number;
  /** Block time, ISO 8601 with nanoseconds as CometBFT gives it. */
  readonly time: string;
  readonly comet: {
    /** CometBFT `/block` result: block_id and block (header, data.txs as base64, last_commit). */
    readonly block: JsonObject;
    /** CometBFT `/block_results` result: txs_results with events, finalize_block_events, validator_updates. */
    readonly blockResults: JsonObject;
    /**
     * CometBFT `/validators` at H-1, every page: the set whose signatures `last_commit` holds, in
     * that order (an absent validator's entry there has no address: this names it). [] at height
     * 1; null when the node no longer has H-1 (pruned). Absent from records written before it.
     */
    readonly lastCommitValidators?: JsonObject[] | null;
    /**
     * Records written before `lastCommitValidators`: CometBFT `/validators` at H, which named the
     * absent signers of H-1 wrongly where the set changed between the two heights.
     */
    readonly validators?: JsonObject[];
  };
  /** The node's JSON of each tx of the block, in block order (`/cosmos/tx/v1beta1/txs/block/{H}`): body, auth_info, signatures. */
  readonly txs: JsonObject[];
  readonly evm: {
    /** eth_getBlockByNumber(H, true); null for a height the EVM does not know. */
    readonly block: JsonObject | null;
    /** eth_getBlockReceipts(H), in transaction order. */
    readonly receipts: JsonObject[];
    /** debug_traceBlockByNumber(H, callTracer), one per transaction; null when the node gives none. */
    readonly traces: JsonObject[] | null;
  };
  /** State read at H that the block alone cannot give. */
  readonly state: {
    /** Every account touched at H, by bech32 address. */
    readonly accounts: Record<string, AccountState>;
    /**
     * The whole validator set (staking REST JSON) when anything about validators changed at H (an
     * event, a validator update, a slash, an unbonding that completed at H), at the ingester's
     * first height and every 1,000 heights (and at the first height of a resumed run whose node no
     * longer has the log's last height); else null.
     */
    readonly validators: JsonObject[] | null;
    /**
     * Commission not yet withdrawn (distribution `validators/{v}/commission`: decimal coins) of
     * every validator in `validators`, by operator address, when read at H: on the ingester's first
     * height, every 1,000 heights, and at a height with a `withdraw_commission` or `create_validator` event. Between
     * reads, the `commission` events of each block add to it. Absent from records written before
     * it existed.
     */
    readonly commission?: Record<string, Coin[]> | null;
    readonly supply: Coin[];
    readonly bondedTokens: string;
    readonly notBondedTokens: string;
    /** Annual inflation, a decimal string. */
    readonly inflation: string;
    /** Community pool: decimal coins. */
    readonly communityPool: Coin[];
  };
  /** Contracts created at H (by transactions or by other contracts), with what a token says of itself. */
  readonly contracts: ContractInfo[];
  /** Token state read at H for every token touched at H, by contract address (lowercase 0x). */
  readonly tokens: Record<string, TokenState>;
}

export interface AccountState {
  /** x/auth account JSON (account number, sequence, pubkey); null when the account does not exist. */
  readonly account: JsonObject | null;
  readonly balances: Coin[];
  /** Items `{delegation: {delegator_address, validator_address, shares}, balance}`. */
  readonly delegations: JsonObject[];
  readonly redelegations: JsonObject[];
  readonly unbonding: JsonObject[];
  /** Distribution rewards `{rewards: [{validator_address, reward}], total}`; null when not read. */
  readonly rewards: JsonObject | null;
}

export type TokenStandard = "ERC20" | "ERC721" | "ERC1155";

export interface ContractInfo {
  /** Lowercase 0x address. */
  readonly address: string;
  /** Who deployed it: the tx sender, or the creating contract for CREATE/CREATE2 from a contract. */
  readonly creator: string;
  /** The transaction that created it (0x EVM hash). */
  readonly txHash: string;
  /** Creation input (init code plus constructor arguments), 0x hex. */
  readonly input: string;
  /** Runtime code at H, 0x hex. */
  readonly code: string;
  readonly token: TokenMeta | null;
}

export interface TokenMeta {
  readonly standard: TokenStandard;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: number | null;
  readonly totalSupply: string | null;
}

export interface TokenState {
  /** From the shape of its events at H (Transfer with 3 topics: ERC20; with 4: ERC721; TransferSingle/Batch: ERC1155). */
  readonly standard: TokenStandard | null;
  /** totalSupply() at H, when the contract answers it. */
  readonly totalSupply: string | null;
  /** balanceOf(holder) at H for every holder touched (ERC20 and ERC721), by lowercase 0x address. */
  readonly balances: Record<string, string>;
  /** ERC1155 balanceOf(holder, id) at H: key `${holder}:${id}`. */
  readonly multiBalances: Record<string, string>;
  /** ERC721: owner and tokenURI at H of every token minted, moved or changed at H (owner null once burned). */
  readonly nfts: Record<
    string,
    { readonly owner: string | null; readonly tokenURI: string | null }
  >;
  /**
   * What it says of itself at H (as a new contract's `token`), read again at every height whose
   * events may change it: a token event, an EIP-1967 `Upgraded`, an `Initialized`. null when it
   * answers as no token; absent where not read (and from records written before it).
   */
  readonly meta?: TokenMeta | null;
}

/** Off-chain NFT metadata behind a tokenURI, fetched after the block and logged as its own record. */
export interface MetadataRecordV1 {
  readonly v: typeof RAW_BLOCK_VERSION;
  readonly kind: "metadata";
  readonly chainId: string;
  /** The height whose tokenURI was fetched. */
  readonly height: number;
  readonly contract: string;
  readonly tokenId: string;
  readonly tokenURI: string;
  readonly fetchedAt: string;
  /** The parsed JSON document, or null with `error` when it could not be had. */
  readonly metadata: JsonObject | null;
  readonly error: string | null;
}

/**
 * A contract verification that succeeded, logged as its own record (key `verify.<address>`) by
 * the API, so a replay of the log restores it. Written once per address.
 */
export interface VerificationRecordV1 {
  readonly v: typeof RAW_BLOCK_VERSION;
  readonly kind: "verification";
  readonly chainId: string;
  /** The last block in the log when it was recorded (the record sits after it). */
  readonly height: number;
  readonly verifiedAt: string;
  /** Lowercase 0x address. */
  readonly address: string;
  readonly contractName: string;
  readonly fileName: string;
  /** `v<version>+commit.<hash>` */
  readonly compilerVersion: string;
  readonly codeFormat: "solidity-single-file" | "solidity-standard-json-input";
  /** As submitted: the single file, or the standard-JSON input text. */
  readonly sourceCode: string;
  readonly optimization: boolean;
  readonly runs: number;
  readonly evmVersion: string;
  /** Hex without 0x. */
  readonly constructorArguments: string;
  readonly libraries: readonly { readonly name: string; readonly address: string }[];
  /** The ABI (JSON array). */
  readonly abi: readonly Json[];
  readonly match: "full" | "partial";
  /** SPDX identifier the source declares, or empty. */
  readonly license: string;
}

/**
 * A RawBlock without the parts the projector reads in place from the record's MessagePack (see
 * @explorer/projections' BlockInput): `txs`, `comet.blockResults.txs_results` (absent from
 * `blockResults` here) and `evm.traces` (which no projection reads).
 */
export type LightBlock = Omit<RawBlockV1, "txs" | "evm"> & {
  readonly evm: Omit<RawBlockV1["evm"], "traces">;
};

/** A frame of the node's callTracer (debug_trace*, `evm.traces`): a call and the calls it made. */
export interface CallFrame {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly value?: string;
  readonly gas: string;
  readonly gasUsed: string;
  readonly input: string;
  readonly output?: string;
  readonly error?: string;
  readonly calls?: readonly CallFrame[];
}
