import { from, level, levels, NATIVE, type Section } from "./chart.ts";

/** The chain's state at each day's last block (levels.ts). */
export const COSMOS_SECTIONS: readonly Section[] = [
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
      // validators and delegators (entity-days.ts)
      from("validators")(
        "activeValidators",
        "Active validators",
        "Validators bonded at the day's last block",
        null,
        { kind: "growth", part: "validators" },
      ),
      from("delegators")(
        "newDelegators",
        "New delegators",
        "Accounts delegating for the first time",
        null,
        { kind: "count", part: "delegators" },
      ),
    ],
  },
];
