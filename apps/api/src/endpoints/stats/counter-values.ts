import { type Day, decimal } from "./series.ts";

export interface Counter {
  readonly id: string;
  readonly value: string;
  readonly title: string;
  readonly units: string | null;
  readonly description: string;
}

export const counter = (
  id: string,
  value: string,
  title: string,
  units: string | null,
  description: string,
): Counter => ({ id, value, title, units, description });

export const sum = (days: readonly Day[], part: string): bigint =>
  days.reduce((s, d) => s + (d.parts[part] ?? 0n), 0n);

/**
 * The counters from the whole chain's days (in order) and the last 24 hours' transactions and
 * fees: pure, so that they are the sums of the same rows the charts read.
 */
export const countersOf = (
  days: readonly Day[],
  recent: { readonly txs: bigint; readonly fee: bigint; readonly contracts: bigint },
  denom: string,
): Counter[] => {
  const n = sum(days, "blocks");
  const first = days[0]?.parts.first_ms ?? 0n;
  const last = days.at(-1)?.parts.last_ms ?? 0n;
  const lastDay = days.at(-1)?.day;
  const yesterday = lastDay
    ? new Date(Date.parse(`${lastDay}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    : undefined;
  const c = counter;
  return [
    c("totalBlocks", n.toString(), "Total blocks", null, "Blocks projected"),
    c("totalTxns", sum(days, "txs").toString(), "Total transactions", null, "Cosmos and EVM"),
    c("completedTxns", sum(days, "success").toString(), "Completed transactions", null, "Code 0"),
    c(
      "averageBlockTime",
      n > 1n ? decimal(last - first, (n - 1n) * 1000n) : "0",
      "Average block time",
      "s",
      "From the first projected block to the last, over the intervals between them",
    ),
    c(
      "yesterdayTxns",
      (days.find((d) => d.day === yesterday)?.parts.txs ?? 0n).toString(),
      "Yesterday transactions",
      null,
      "In the UTC day before the last block's",
    ),
    c("newTxns24h", recent.txs.toString(), "Transactions (24h)", null, "Up to the last block"),
    c("txnsFee24h", recent.fee.toString(), "Transactions fees (24h)", denom, "Fees paid"),
    c(
      "averageTxnFee24h",
      recent.txs > 0n ? decimal(recent.fee, recent.txs) : "0",
      "Average transaction fee (24h)",
      denom,
      "Fees paid over transactions",
    ),
    c("totalContracts", sum(days, "contracts").toString(), "Total contracts", null, "Created"),
    c(
      "newContracts24h",
      recent.contracts.toString(),
      "New contracts (24h)",
      null,
      "Up to the last block",
    ),
  ];
};

/**
 * The chain's state at the projected block (its day's levels, levels.ts) and the validators
 * bonded there: pure.
 */
export const stateCounters = (
  last: Day | undefined,
  activeValidators: bigint,
  denom: string,
): Counter[] => {
  const p = last?.parts ?? {};
  const of = (num: string, den: bigint | undefined) =>
    den ? decimal(p[num] ?? 0n, den) : (p[num] ?? 0n).toString();
  return [
    counter(
      "nativeCoinSupply",
      of("supply", undefined),
      "Native coin supply",
      denom,
      "Bank supply",
    ),
    counter("bondedRatio", of("bonded", p.supply), "Bonded ratio", null, "Bonded over supply"),
    counter("communityPool", of("pool", p.dec_one), "Community pool", denom, "6 decimals"),
    counter("inflation", of("inflation", p.dec_one), "Inflation", null, "Annual, 0 to 1"),
    counter(
      "activeValidators",
      activeValidators.toString(),
      "Active validators",
      null,
      "Bonded at the last block",
    ),
  ];
};
