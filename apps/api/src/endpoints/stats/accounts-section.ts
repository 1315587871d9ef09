import { ACTIVE_PER } from "./account-days.ts";
import { accounts, type Section } from "./chart.ts";

/** The accounts' and the native coin's charts (account-days.ts), by section. */
export const ACCOUNTS_SECTIONS: readonly Section[] = [
  {
    id: "accounts",
    title: "Accounts",
    charts: [
      accounts(
        "activeAccounts",
        "Active accounts",
        "Accounts that signed or sent a transaction, distinct in each period",
        null,
        { kind: "count", part: "active", per: ACTIVE_PER },
      ),
      accounts(
        "newAccounts",
        "New accounts",
        "Accounts that signed or sent their first transaction",
        null,
        { kind: "count", part: "new_accounts" },
      ),
      accounts(
        "accountsGrowth",
        "Accounts growth",
        "Accounts that signed or sent a transaction so far",
        null,
        { kind: "growth", part: "new_accounts" },
      ),
    ],
  },
  {
    id: "nativeCoin",
    title: "Native coin",
    charts: [
      accounts(
        "newNativeCoinTransfers",
        "New native coin transfers",
        "Successful EVM transactions with a value, and bank sends of the native coin",
        null,
        { kind: "count", part: "native_transfers" },
      ),
      accounts(
        "newNativeCoinHolders",
        "New native coin holders",
        "Accounts whose balance went from 0 to more, less those whose balance went to 0",
        null,
        { kind: "count", part: "holders" },
      ),
      accounts(
        "nativeCoinHoldersGrowth",
        "Native coin holders growth",
        "Accounts holding the native coin at the day's end",
        null,
        { kind: "growth", part: "holders" },
      ),
    ],
  },
];
