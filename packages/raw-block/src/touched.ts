import { fromBech32, toBech32 } from "@cosmjs/encoding";
import { valconsToHex } from "./consensus.ts";
import {
  hexToBigInt,
  looksLikeAddress,
  smallUint,
  transferBatch,
  words,
  wordToAddress,
  ZERO_ADDRESS,
} from "./hex.ts";
import type { CallFrame, Json, JsonObject, RawBlockV1, TokenStandard } from "./types.ts";

export const TOPIC = {
  transfer: "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
  transferSingle: "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62",
  transferBatch: "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb",
  metadataUpdate: "0xf8e1a15aba9398e019f0b49df1a4fde98ee17ae345cb5f6b5e2c27f5033e8ce7",
  batchMetadataUpdate: "0x6bd5c950a8d8df17f772f5af37cb3655737899cbf903264b9795592da439661c",
  /** EIP-1967 `Upgraded(address)`: a proxy's implementation changed. */
  upgraded: "0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b",
  /** OpenZeppelin `Initialized(uint8)` (v4) and `Initialized(uint64)` (v5). */
  initialized8: "0x7f26b83ff96e1f2b6a682f133852f6798a09c465da95921460cefb3847402498",
  initialized64: "0xc7f505b2f371ae2175ee4913f4499e1f2633a7b5936321eed1cdaeb6115181d2",
} as const;

/** The token calls the ingester reads state with (human-readable ABI: ERC-20, -721, -1155, -165). */
export const TOKEN_ABI = [
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function totalSupply() view returns (uint256)",
  "function balanceOf(address) view returns (uint256)",
  "function balanceOf(address,uint256) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
  "function tokenURI(uint256) view returns (string)",
  "function supportsInterface(bytes4) view returns (bool)",
] as const;

/** What the ingester must read at H, beyond the block: found from the block alone (pure). */
export interface Touched {
  /**
   * bech32 account addresses whose balances, delegations and rewards to read; a contract created
   * at H among them (the chain holds an account for it, which no event names).
   */
  readonly accounts: string[];
  /** Whether to read the whole validator set at H. */
  readonly validatorsChanged: boolean;
  /**
   * Whether to read every validator's commission at H (RawBlockV1 `state.commission`): when
   * commission was withdrawn (the `withdraw_commission` event does not name the validator) or a
   * validator was created (an operator address removed earlier may be reused).
   */
  readonly commissionChanged: boolean;
  /** Consensus addresses (hex) of validators slashed at H: their delegators' balances changed. */
  readonly slashed: string[];
  /** Contracts created at H. */
  readonly created: { address: string; creator: string; txHash: string; input: string }[];
  /** Token contracts touched at H and what to read of each. */
  readonly tokens: Map<string, TokenTouch>;
}

export interface TokenTouch {
  /** Known from the shape of events at H; null when only suspected (called with address-like arguments). */
  standard: TokenStandard | null;
  readonly holders: Set<string>;
  /** ERC1155 `${holder}:${id}`. */
  readonly multi: Set<string>;
  /** ERC721 token ids moved or changed at H (decimal strings). */
  readonly nftIds: Set<string>;
  /** Small integers passed to the contract: possible token ids whose tokenURI may have changed. */
  readonly candidateIds: Set<string>;
  /**
   * Its name, symbol or decimals may have changed at H: it emitted a token event, an EIP-1967
   * `Upgraded` or an `Initialized` (a token behind a proxy is named by a later initialization).
   */
  renamed: boolean;
}

/** Event types after which the validator set is read again. */
const VALIDATOR_EVENTS = new Set([
  "create_validator",
  "edit_validator",
  "delegate",
  "unbond",
  "redelegate",
  "cancel_unbonding_delegation",
  "complete_unbonding",
  "complete_redelegation",
  "slash",
  "jail",
  "unjail",
]);

type Block = Pick<RawBlockV1, "comet" | "txs" | "evm">;

const str = (v: Json | undefined): string => (typeof v === "string" ? v : "");
const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
const obj = (v: Json | undefined): JsonObject =>
  v && typeof v === "object" && !Array.isArray(v) ? v : {};

const eventsOf = (blockResults: JsonObject): JsonObject[] =>
  [
    ...arr(blockResults.txs_results).flatMap((t) => arr(obj(t).events)),
    ...arr(blockResults.finalize_block_events),
    ...arr(blockResults.begin_block_events),
    ...arr(blockResults.end_block_events),
  ].map(obj);

/** Every string inside a JSON value, depth first. */
const strings = function* (v: Json | undefined): Generator<string> {
  if (typeof v === "string") yield v;
  else if (Array.isArray(v)) for (const x of v) yield* strings(x);
  else if (v && typeof v === "object") for (const x of Object.values(v)) yield* strings(x);
};

const accountIn = (s: string, prefix: string): string | undefined => {
  if (s.length !== prefix.length + 39 || !s.startsWith(`${prefix}1`)) return undefined;
  try {
    const d = fromBech32(s, 1023);
    return d.prefix === prefix && d.data.length === 20 ? s : undefined;
  } catch {
    return undefined;
  }
};

const evmToAccount = (evm: string, prefix: string): string | undefined =>
  /^0x[0-9a-fA-F]{40}$/.test(evm) && evm.toLowerCase() !== ZERO_ADDRESS
    ? toBech32(prefix, Buffer.from(evm.slice(2), "hex"))
    : undefined;

/** A call tree's frames, depth first; not the calls of a failed frame (its failure undid them). */
const framesOf = function* (
  f: CallFrame,
  depth = 0,
): Generator<{ frame: CallFrame; depth: number }> {
  yield { frame: f, depth };
  if (f.error) return;
  for (const c of f.calls ?? []) yield* framesOf(c, depth + 1);
};

/**
 * The accounts a block's events and Cosmos txs name: most of what `touched` finds, known before the
 * EVM parts (receipts, traces) arrive, so the ingester can start reading them.
 */
export const namedAccounts = (
  blockResults: JsonObject,
  txs: readonly JsonObject[],
  prefix: string,
): Set<string> => {
  const accounts = new Set<string>();
  const add = (a: string | undefined) => a && accounts.add(a);
  for (const e of eventsOf(blockResults))
    for (const s of strings(e.attributes)) add(accountIn(s, prefix));
  for (const tx of txs) for (const s of strings(tx)) add(accountIn(s, prefix));
  return accounts;
};

/** Finds what height H touched, from its events, txs, EVM transactions, receipts and traces. */
export const touched = (b: Block, prefix: string): Touched => {
  const accounts = namedAccounts(b.comet.blockResults, b.txs, prefix);
  const add = (a: string | undefined) => a && accounts.add(a);
  const events = eventsOf(b.comet.blockResults);

  const validatorsChanged =
    events.some((e) => VALIDATOR_EVENTS.has(str(e.type))) ||
    arr(b.comet.blockResults.validator_updates).length > 0;
  const commissionChanged = events.some(
    (e) => e.type === "withdraw_commission" || e.type === "create_validator",
  );

  const evmTxs = arr(b.evm.block?.transactions).map(obj);
  const traces =
    b.evm.traces?.map((t) => obj(t).result as unknown as CallFrame | undefined) ?? null;
  const tokens = new Map<string, TokenTouch>();
  const token = (address: string): TokenTouch => {
    const a = address.toLowerCase();
    let t = tokens.get(a);
    if (!t) {
      t = {
        standard: null,
        holders: new Set(),
        multi: new Set(),
        nftIds: new Set(),
        candidateIds: new Set(),
        renamed: false,
      };
      tokens.set(a, t);
    }
    return t;
  };
  const holder = (t: TokenTouch, topicOrWord: string) => {
    const h = wordToAddress(topicOrWord);
    if (h !== ZERO_ADDRESS) t.holders.add(h);
  };

  const created: Touched["created"] = [];
  evmTxs.forEach((tx, i) => {
    add(evmToAccount(str(tx.from), prefix));
    add(evmToAccount(str(tx.to), prefix));
    const root = traces?.[i];
    if (root) {
      for (const { frame, depth } of framesOf(root)) {
        if (frame.error) continue;
        const to = frame.to ?? "";
        if (hexToBigInt(frame.value ?? "0x0") > 0n) {
          add(evmToAccount(frame.from, prefix));
          add(evmToAccount(to, prefix));
        }
        if (frame.type === "CREATE" || frame.type === "CREATE2") {
          // a creation that succeeded names its contract
          if (to)
            created.push({
              address: to.toLowerCase(),
              creator: frame.from.toLowerCase(),
              txHash: str(tx.hash),
              input: frame.input,
            });
        } else if (depth > 0 || frame.type === "CALL") {
          suspect(token, to, frame.input, frame.from);
        }
      }
    } else {
      const receipt = obj(b.evm.receipts[i]);
      // A failed deployment's receipt names the address too (evmd): nothing was created there.
      if (str(receipt.contractAddress) && str(receipt.status) === "0x1") {
        created.push({
          address: str(receipt.contractAddress).toLowerCase(),
          creator: str(tx.from).toLowerCase(),
          txHash: str(tx.hash),
          input: str(tx.input),
        });
      } else if (str(tx.to)) suspect(token, str(tx.to), str(tx.input), str(tx.from));
    }
  });
  for (const c of created) add(evmToAccount(c.address, prefix));

  for (const r of b.evm.receipts) {
    if (str(obj(r).status) !== "0x1") continue;
    for (const l of arr(obj(r).logs).map(obj)) {
      const topics = arr(l.topics).map(str);
      const data = str(l.data);
      const address = str(l.address);
      if (topics[0] === TOPIC.transfer && topics.length === 3) {
        const t = token(address);
        t.standard ??= "ERC20";
        holder(t, topics[1]!);
        holder(t, topics[2]!);
      } else if (topics[0] === TOPIC.transfer && topics.length === 4) {
        const t = token(address);
        t.standard = "ERC721";
        holder(t, topics[1]!);
        holder(t, topics[2]!);
        t.nftIds.add(hexToBigInt(topics[3]!).toString());
      } else if (topics[0] === TOPIC.transferSingle && topics.length === 4) {
        const t = token(address);
        t.standard = "ERC1155";
        const [id] = words(data);
        for (const side of [topics[2]!, topics[3]!]) {
          const h = wordToAddress(side);
          if (h !== ZERO_ADDRESS && id) t.multi.add(`${h}:${hexToBigInt(`0x${id}`)}`);
        }
      } else if (topics[0] === TOPIC.transferBatch && topics.length === 4) {
        const t = token(address);
        t.standard = "ERC1155";
        for (const id of batchIds(data)) {
          for (const side of [topics[2]!, topics[3]!]) {
            const h = wordToAddress(side);
            if (h !== ZERO_ADDRESS) t.multi.add(`${h}:${id}`);
          }
        }
      } else if (
        topics[0] === TOPIC.upgraded ||
        topics[0] === TOPIC.initialized8 ||
        topics[0] === TOPIC.initialized64
      ) {
        token(address).renamed = true;
      } else if (topics[0] === TOPIC.metadataUpdate) {
        const [id] = words(data);
        if (id) token(address).nftIds.add(hexToBigInt(`0x${id}`).toString());
      }
    }
  }
  const slashed = events
    .filter((e) => str(e.type) === "slash")
    .flatMap((e) =>
      arr(e.attributes)
        .map(obj)
        .filter((a) => str(a.key) === "address"),
    )
    .map((a) => {
      try {
        return valconsToHex(str(a.value));
      } catch {
        return "";
      }
    })
    .filter(Boolean);
  return {
    accounts: [...accounts].sort(),
    validatorsChanged,
    commissionChanged,
    slashed: [...new Set(slashed)].sort(),
    created,
    tokens,
  };
};

/** A call into a contract with address-like or small-integer arguments: maybe a token whose state changed silently. */
const suspect = (token: (a: string) => TokenTouch, to: string, input: string, from: string) => {
  if (!to || !input || input.length < 10) return;
  const args = words(input, true);
  const addrs = args.filter(looksLikeAddress).map(wordToAddress);
  const ids = args.map(smallUint).filter((x): x is bigint => x !== undefined);
  if (addrs.length === 0 && ids.length === 0) return;
  const t = token(to);
  t.holders.add(from.toLowerCase());
  for (const a of addrs) t.holders.add(a);
  for (const id of ids) t.candidateIds.add(id.toString());
};

/** Token ids of a TransferBatch event's data: (uint256[] ids, uint256[] values). */
const batchIds = (data: string): string[] =>
  (transferBatch(data)?.ids ?? []).map((id) => id.toString());
