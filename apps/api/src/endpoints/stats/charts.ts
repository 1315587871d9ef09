import { RESOLUTIONS } from "./periods.ts";
import { SCOPED, type Scope, type ScopedSource } from "./scoped.ts";
import type { Measure } from "./series.ts";

/** Where a chart's parts come from: the whole chain's days (daily.ts), or a scoped source (scoped.ts). */
export type Source = "chain" | "levels" | ScopedSource;

/** A chart of `/stats/lines`: what Blockscout's stats service lists, and how it is computed. */
export interface Chart {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly units: string | null;
  readonly source: Source;
  readonly measure: Measure;
  /** The query parameter naming what the chart is of (required); none: the whole chain's. */
  readonly scope?: Scope;
}

export interface Section {
  readonly id: string;
  readonly title: string;
  readonly charts: readonly Chart[];
}

/** Stands for the native coin's denom in a chart's units (chartInfo writes the denom). */
export const NATIVE = "<native>";

const from =
  (source: Source) =>
  (
    id: string,
    title: string,
    description: string,
    units: string | null,
    measure: Measure,
  ): Chart => ({
    id,
    title,
    description,
    units,
    source,
    measure,
  });
/** A scoped chart: its source's scope is its required parameter. */
const scoped = (source: ScopedSource) => {
  const make = from(source);
  return (...a: Parameters<typeof make>): Chart => ({ ...make(...a), scope: SCOPED[source].scope });
};
const chain = from("chain");
const levels = from("levels");
/** A level of the chain's state at each day's last block (levels.ts). */
const level = (part: string, den?: string): Measure => ({
  kind: "level",
  part,
  has: "readings",
  den,
});

/** Every chart served, by section, in the order `/stats/lines` lists them (docs/analytics.md). */
export const SECTIONS: readonly Section[] = [
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
  {
    id: "cosmos",
    title: "Staking and supply",
    charts: [
      levels(
        "nativeCoinSupply",
        "Native coin supply",
        "The bank's total supply at the day's last block",
        NATIVE,
        level("supply"),
      ),
      levels(
        "bondedTokens",
        "Bonded tokens",
        "Tokens staked to bonded validators at the day's last block",
        NATIVE,
        level("bonded"),
      ),
      levels(
        "bondedRatio",
        "Bonded ratio",
        "Bonded tokens over the supply, 0 to 1",
        null,
        level("bonded", "supply"),
      ),
      levels(
        "communityPool",
        "Community pool",
        "The community pool at the day's last block (6 decimals)",
        NATIVE,
        level("pool", "dec_one"),
      ),
      levels(
        "inflation",
        "Inflation",
        "Annual inflation at the day's last block, 0 to 1",
        null,
        level("inflation", "dec_one"),
      ),
    ],
  },
  {
    id: "address",
    title: "An account (?address=)",
    charts: [
      scoped("accountTxs")(
        "accountTxns",
        "Account transactions",
        "Transactions involving the account, as its transaction list has them",
        null,
        { kind: "count", part: "txs" },
      ),
      scoped("accountBalance")(
        "accountBalance",
        "Account balance",
        "Native balance at the day's end, from the first block touching the account",
        NATIVE,
        { kind: "level", part: "balance", has: "readings" },
      ),
    ],
  },
  {
    id: "token",
    title: "A token (?contractAddress=)",
    charts: [
      scoped("tokenTransfers")(
        "tokenTransfers",
        "Token transfers",
        "Transfers of the token (each ERC-1155 batch item)",
        null,
        { kind: "count", part: "transfers" },
      ),
      scoped("tokenHolders")(
        "tokenHolders",
        "Token holders",
        "Accounts holding a positive balance of the token at the day's end",
        null,
        { kind: "growth", part: "holders" },
      ),
    ],
  },
  {
    id: "validator",
    title: "A validator (?validator=)",
    charts: [
      scoped("validatorSignatures")(
        "validatorSignedBlocks",
        "Blocks signed",
        "Blocks whose commit carries the validator's signature",
        null,
        { kind: "count", part: "signed" },
      ),
      scoped("validatorSignatures")(
        "validatorMissedBlocks",
        "Blocks missed",
        "Blocks whose commit names the validator without its signature",
        null,
        { kind: "count", part: "missed" },
      ),
      scoped("validatorPower")(
        "validatorVotingPower",
        "Voting power",
        "Tokens staked to the validator at the day's end while bonded, 0 otherwise",
        NATIVE,
        { kind: "level", part: "power", has: "readings" },
      ),
    ],
  },
];

/** The charts by id. */
export const CHARTS: ReadonlyMap<string, Chart> = new Map(
  SECTIONS.flatMap((s) => s.charts.map((c) => [c.id, c] as const)),
);

/** A chart as `/stats/lines` lists it (and `info` of a line). */
export const chartInfo = (c: Chart, denom: string) => ({
  id: c.id,
  title: c.title,
  description: c.description,
  units: c.units === NATIVE ? denom : c.units,
  resolutions: RESOLUTIONS,
});
