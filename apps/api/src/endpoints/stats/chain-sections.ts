import { chain, from, NATIVE, type Section } from "./chart.ts";

/** The whole chain's summed charts (daily.ts), by section. */
export const CHAIN_SECTIONS: readonly Section[] = [
  {
    id: "transactions",
    title: "Transactions",
    charts: [
      chain("newTxns", "New transactions", "Transactions included per day (Cosmos and EVM)", null, {
        kind: "count",
        part: "txs",
      }),
      chain(
        "newCosmosTxns",
        "New Cosmos transactions",
        "Transactions without an EVM message",
        null,
        {
          kind: "count",
          part: "cosmos_txs",
        },
      ),
      chain("newEvmTxns", "New EVM transactions", "Transactions carrying an EVM message", null, {
        kind: "count",
        part: "evm_txs",
      }),
      chain("newMessages", "New messages", "Messages of the transactions included", null, {
        kind: "count",
        part: "messages",
      }),
      chain("txnsSuccessRate", "Transactions success rate", "Successful over all, 0 to 1", null, {
        kind: "ratio",
        num: "success",
        den: "txs",
      }),
      chain(
        "txnsFee",
        "Transactions fees",
        "Fees paid in the native coin, refunds netted",
        NATIVE,
        {
          kind: "count",
          part: "fee",
        },
      ),
      chain("averageTxnFee", "Average transaction fee", "Fees paid over transactions", NATIVE, {
        kind: "ratio",
        num: "fee",
        den: "txs",
      }),
    ],
  },
  {
    id: "tokens",
    title: "Tokens",
    charts: [
      chain(
        "newTokenTransfers",
        "New token transfers",
        "CFC-20 and CFC-721 transfers and ERC-1155 transfer items",
        null,
        { kind: "count", part: "transfers" },
      ),
      // sql/025: tokens first seen (entity-days.ts)
      from("tokens")(
        "newTokens",
        "New tokens",
        "Contracts first read as a CFC-20, CFC-721 or ERC-1155 token",
        null,
        { kind: "count", part: "tokens" },
      ),
    ],
  },
  {
    id: "contracts",
    title: "Contracts",
    charts: [
      chain(
        "newContracts",
        "New contracts",
        "Contracts created, by transactions or contracts",
        null,
        {
          kind: "count",
          part: "contracts",
        },
      ),
      chain("contractsGrowth", "Contracts growth", "Contracts created so far", null, {
        kind: "growth",
        part: "contracts",
      }),
      // verified contracts, by the day of their verification (entity-days.ts)
      from("verified")(
        "newVerifiedContracts",
        "New verified contracts",
        "Contracts verified, by the UTC day of their verification",
        null,
        { kind: "count", part: "verified" },
      ),
      from("verified")(
        "verifiedContractsGrowth",
        "Verified contracts growth",
        "Contracts verified so far",
        null,
        { kind: "growth", part: "verified" },
      ),
    ],
  },
  {
    id: "blocks",
    title: "Blocks",
    charts: [
      chain("newBlocks", "New blocks", "Blocks per day", null, { kind: "count", part: "blocks" }),
      chain("averageBlockTime", "Average block time", "Seconds between blocks", "s", {
        kind: "interval",
      }),
      chain("averageBlockSize", "Average block size", "The EVM block's size", "bytes", {
        kind: "ratio",
        num: "size",
        den: "blocks",
      }),
      chain("averageGasUsed", "Average gas used", "The EVM block's gasUsed", null, {
        kind: "ratio",
        num: "gas_used",
        den: "blocks",
      }),
      chain("averageGasLimit", "Average gas limit", "The EVM block's gasLimit", null, {
        kind: "ratio",
        num: "gas_limit",
        den: "blocks",
      }),
      chain("gasUsedGrowth", "Cumulative gas used", "Gas used by every block so far", null, {
        kind: "growth",
        part: "gas_used",
      }),
      chain("networkUtilization", "Network utilization", "Gas used over gas limit", "%", {
        kind: "ratio",
        num: "gas_used",
        den: "gas_limit",
        times: 100n,
      }),
    ],
  },
];
