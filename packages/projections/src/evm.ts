import {
  hexToBigInt,
  type LightBlock,
  type MetadataRecordV1,
  TOPIC,
  type TokenStandard,
  transferBatch,
  words,
  wordToAddress,
  ZERO_ADDRESS,
} from "@explorer/raw-block";
import { arr, blockTime, chTime, obj, str } from "./context.ts";

export const tokenTypeName = (s: TokenStandard | null | undefined): string =>
  s === "ERC20" ? "CFC-20" : s === "ERC721" ? "CFC-721" : s === "ERC1155" ? "ERC-1155" : "";

interface Log {
  readonly address: string;
  readonly topics: string[];
  readonly data: string;
  readonly logIndex: number;
  readonly txIndex: number;
  readonly txLogIndex: number;
  readonly txHash: string;
  readonly origin: string;
}

/** Logs of successful transactions, in block order, with their positions. */
export const logsOf = (raw: LightBlock): Log[] =>
  raw.evm.receipts.map(obj).flatMap((r) => {
    if (str(r.status) !== "0x1") return [];
    return arr(r.logs)
      .map(obj)
      .map((l, i) => ({
        address: str(l.address).toLowerCase(),
        topics: arr(l.topics).map((t) => str(t).toLowerCase()),
        data: str(l.data),
        logIndex: Number(hexToBigInt(str(l.logIndex))),
        txIndex: Number(hexToBigInt(str(r.transactionIndex))),
        txLogIndex: i,
        txHash: str(r.transactionHash).toLowerCase(),
        origin: str(r.from).toLowerCase(),
      }));
  });

export const projectEventLogs = (raw: LightBlock) => {
  const time = chTime(blockTime(raw));
  const blockHash = str(raw.evm.block?.hash).toLowerCase();
  const event_logs = logsOf(raw).map((l) => ({
    block_number: raw.height,
    log_index: l.logIndex,
    tx_index: l.txIndex,
    tx_log_index: l.txLogIndex,
    block_hash: blockHash,
    tx_hash: l.txHash,
    contract: l.address,
    origin: l.origin,
    topics: l.topics,
    data: l.data,
    time,
  }));
  return { event_logs };
};

export const projectContracts = (raw: LightBlock) => {
  const time = chTime(blockTime(raw));
  const contracts = raw.contracts.map((c) => ({
    address: c.address,
    creator: c.creator,
    tx_hash: c.txHash.toLowerCase(),
    block_number: raw.height,
    time,
    code: c.code,
    input: c.input,
    token_type: tokenTypeName(c.token?.standard),
    name: c.token?.name ?? "",
    symbol: c.token?.symbol ?? "",
    decimals: c.token?.decimals ?? null,
    total_supply: c.token?.totalSupply ?? "",
  }));
  const token_supply = Object.entries(raw.tokens)
    .filter(([, t]) => t.totalSupply !== null && /^\d+$/.test(t.totalSupply))
    .map(([contract, t]) => ({ contract, height: raw.height, total_supply: t.totalSupply! }));
  for (const c of raw.contracts) {
    if (c.token?.totalSupply && !token_supply.some((s) => s.contract === c.address)) {
      token_supply.push({
        contract: c.address,
        height: raw.height,
        total_supply: c.token.totalSupply,
      });
    }
  }
  return { contracts, token_supply };
};

/** Token transfers read from the logs: Transfer (CFC-20: 3 topics; CFC-721: 4), TransferSingle, TransferBatch. */
export const projectTokenTransfers = (raw: LightBlock) => {
  const time = chTime(blockTime(raw));
  const token_transfers: {
    block_number: number;
    log_index: number;
    sub: number;
    tx_hash: string;
    contract: string;
    from_address: string;
    to_address: string;
    value: string;
    token_id: string;
    token_type: string;
    time: string;
  }[] = [];
  const push = (
    l: Log,
    sub: number,
    from: string,
    to: string,
    value: bigint,
    tokenId: string,
    type: string,
  ) =>
    token_transfers.push({
      block_number: raw.height,
      log_index: l.logIndex,
      sub,
      tx_hash: l.txHash,
      contract: l.address,
      from_address: from,
      to_address: to,
      value: value.toString(),
      token_id: tokenId,
      token_type: type,
      time,
    });
  for (const l of logsOf(raw)) {
    const [t0, t1, t2, t3] = l.topics;
    if (t0 === TOPIC.transfer && l.topics.length === 3 && words(l.data).length === 1) {
      push(l, 0, wordToAddress(t1!), wordToAddress(t2!), hexToBigInt(l.data), "", "CFC-20");
    } else if (t0 === TOPIC.transfer && l.topics.length === 4) {
      push(
        l,
        0,
        wordToAddress(t1!),
        wordToAddress(t2!),
        1n,
        hexToBigInt(t3!).toString(),
        "CFC-721",
      );
    } else if (t0 === TOPIC.transferSingle && l.topics.length === 4) {
      const [id, value] = words(l.data);
      push(
        l,
        0,
        wordToAddress(t2!),
        wordToAddress(t3!),
        hexToBigInt(`0x${value ?? "0"}`),
        hexToBigInt(`0x${id ?? "0"}`).toString(),
        "ERC-1155",
      );
    } else if (t0 === TOPIC.transferBatch && l.topics.length === 4) {
      const batch = transferBatch(l.data);
      batch?.ids.forEach((id, i) => {
        push(
          l,
          i,
          wordToAddress(t2!),
          wordToAddress(t3!),
          batch.values[i]!,
          id.toString(),
          "ERC-1155",
        );
      });
    }
  }
  return { token_transfers };
};

/** Holder balances and NFT owners as the tokens answered at H. */
export const projectTokenState = (raw: LightBlock) => {
  const time = chTime(blockTime(raw));
  const token_holders: {
    contract: string;
    holder: string;
    token_id: string;
    balance: string;
    height: number;
    time: string;
  }[] = [];
  const token_inventory: {
    contract: string;
    token_id: string;
    owner: string;
    token_uri: string;
    height: number;
    time: string;
  }[] = [];
  for (const [contract, t] of Object.entries(raw.tokens)) {
    for (const [holder, balance] of Object.entries(t.balances))
      token_holders.push({ contract, holder, token_id: "", balance, height: raw.height, time });
    for (const [key, balance] of Object.entries(t.multiBalances)) {
      const [holder, id] = key.split(":") as [string, string];
      token_holders.push({ contract, holder, token_id: id, balance, height: raw.height, time });
    }
    for (const [tokenId, n] of Object.entries(t.nfts)) {
      token_inventory.push({
        contract,
        token_id: tokenId,
        // Burned: ownerOf reverts (null) or, in some contracts, answers the zero address.
        owner: !n.owner || n.owner === ZERO_ADDRESS ? "" : n.owner,
        token_uri: n.tokenURI ?? "",
        height: raw.height,
        time,
      });
    }
  }
  return { token_holders, token_inventory };
};

export const projectMetadata = (m: MetadataRecordV1) => ({
  nft_metadata: [
    {
      contract: m.contract,
      token_id: m.tokenId,
      token_uri: m.tokenURI,
      metadata: m.metadata ? JSON.stringify(m.metadata) : "",
      error: m.error ?? "",
      height: m.height,
    },
  ],
});
