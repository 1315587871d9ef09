import { named } from "../records/token-names.ts";

/**
 * The sortable fields of every list and what each sorts by (a column, or for validators a field
 * of the record): each list endpoint (endpoints/) offers the names, which validate requests and fill
 * /openapi.json; the handlers order by the values. Several names for one order are the record's
 * own field names for it (a token's `blockNumberCreate` and `timestamp` order as `blockNumber`).
 */
export const SORTS = {
  txs: { height: "height", timestamp: "height" },
  blocks: { height: "height", timestamp: "height" },
  addresses: { blockNumber: "height", timestamp: "height", address: "address", mx: "address" },
  richList: { balance: "amount" },
  validators: {
    tokens: "tokens",
    operator_address: "operator_address",
    signedBlocks: "signedBlocks",
    unsignedBlocks: "unsignedBlocks",
  },
  // A log's logIndex counts within its block, so every name is the chain's order of logs (the
  // handler always orders by block_number, log_index; only the direction is taken).
  eventLogs: { blockNumber: "block_number", logIndex: "block_number", timestamp: "block_number" },
  contracts: {
    blockNumber: "c.block_number",
    blockNumberCreate: "c.block_number",
    timestamp: "c.block_number",
    // the name the answer shows: the latest reading (records/token-names.ts)
    name: named("name"),
    holderCount: "holder_count",
    transferCount: "transfer_count",
  },
  transfers: { blockNumber: "t.block_number", timestamp: "t.block_number" },
  // The chain's order of frames (block, transaction, depth first): only the direction is taken.
  internalTxs: { blockNumber: "block_number", timestamp: "block_number" },
  addressTokens: { blockNumber: "height", timestamp: "height", contractAddress: "contract" },
  holders: { balance: "h.balance", blockNumber: "h.height", timestamp: "h.height" },
  inventory: {
    blockNumber: "i.height",
    timestamp: "i.height",
    tokenId: "toUInt256OrZero(i.token_id)",
  },
} as const satisfies Record<string, Record<string, string>>;
