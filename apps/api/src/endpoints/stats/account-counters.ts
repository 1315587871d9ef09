import { type Counter, counter, sum } from "./counter-values.ts";
import type { Day } from "./series.ts";

/** The accounts' and the native coin's counters from their days (account-days.ts): pure. */
export const accountCounters = (days: readonly Day[]): Counter[] => [
  counter(
    "totalAccounts",
    sum(days, "new_accounts").toString(),
    "Total accounts",
    null,
    "Accounts that signed or sent a transaction",
  ),
  counter(
    "totalNativeCoinTransfers",
    sum(days, "native_transfers").toString(),
    "Total native coin transfers",
    null,
    "Successful EVM transactions with a value, and bank sends of the native coin",
  ),
  counter(
    "totalNativeCoinHolders",
    sum(days, "holders").toString(),
    "Total native coin holders",
    null,
    "Accounts holding the native coin at the last block",
  ),
];
