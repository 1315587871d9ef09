import { NATIVE, type Section, scoped } from "./chart.ts";

/** Charts of one account, token or validator (scoped.ts), by section. */
export const SCOPED_SECTIONS: readonly Section[] = [
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
