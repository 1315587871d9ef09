/**
 * Funded test accounts of the reference chain. Fixed mnemonics, derived on the Ethereum path
 * m/44'/60'/0'/0/0 with eth_secp256k1 keys (as `evmd keys add --algo eth_secp256k1` does), so the
 * same account is reachable from ethers (0x form) and cosmjs (bech32 form). For tests only: these
 * keys are public and must never hold value on a real network.
 */
export interface TestAccount {
  readonly name: string;
  readonly mnemonic: string;
  /** Genesis balance in the base denom. */
  readonly balance: bigint;
}

const TOKENS = 10n ** 18n;

export const testAccounts = {
  val0: {
    name: "val0",
    mnemonic:
      "impose proud solution display agree lion leader flavor input chronic train chicken abuse volume portion add educate foam squirrel tooth fury now gasp female",
    balance: 100_000_000n * TOKENS,
  },
  val1: {
    name: "val1",
    mnemonic:
      "inside roof sell subject punch fire baby peanut receive reunion minor artwork ski fetch ritual gold strike two pelican damp service visual field nuclear",
    balance: 1_000_000n * TOKENS,
  },
  alice: {
    name: "alice",
    mnemonic:
      "horn guitar student grow give there spend wet fiscal eternal camera thrive concert lesson grape magnet leave fold chaos chef trumpet medal luggage tent",
    balance: 1_000_000n * TOKENS,
  },
  bob: {
    name: "bob",
    mnemonic:
      "strong disease diary galaxy lemon question burden ring bulb regret point holiday negative beyond dial lounge brush weapon recall enlist involve undo loud skin",
    balance: 1_000_000n * TOKENS,
  },
  carol: {
    name: "carol",
    mnemonic:
      "notice portion fabric witness neck august wire merry vivid identify road this blue agree hurt panther husband roast clarify keen reopen run leader border",
    balance: 1_000_000n * TOKENS,
  },
  dave: {
    name: "dave",
    mnemonic:
      "bring peace distance above device wealth three hazard solid table rate public install garbage curtain wisdom keep fee clip mean embrace hat gate purchase",
    balance: 1_000_000n * TOKENS,
  },
  erin: {
    name: "erin",
    mnemonic:
      "toast pet bamboo rich soon abandon camera lift spirit angle panda trigger vast squeeze use mom distance inch animal catalog armor dune loan senior",
    balance: 1_000_000n * TOKENS,
  },
  frank: {
    name: "frank",
    mnemonic:
      "ivory embark bottom remove source alarm connect gas cute trick supply effort bracket riot wear spread tilt degree visual print naive social robust rail",
    balance: 1_000_000n * TOKENS,
  },
  grace: {
    name: "grace",
    mnemonic:
      "orchard exile amount fun sentence defense below maple add toddler doll drastic excuse step rule over mansion elephant any food airport cool curve nation",
    balance: 1_000_000n * TOKENS,
  },
  /** Spare accounts the scenario never touches, one per test suite that sends its own txs. */
  heidi: {
    name: "heidi",
    mnemonic: "true venue cake retire weasel toilet valid destroy forward mutual health glove",
    balance: 1_000_000n * TOKENS,
  },
  ivan: {
    name: "ivan",
    mnemonic: "upset choose grant shop north immense vocal affair book blur bamboo draft",
    balance: 1_000_000n * TOKENS,
  },
  judy: {
    name: "judy",
    mnemonic: "record elite kitchen now main noodle chuckle divide heart wash peanut pipe",
    balance: 1_000_000n * TOKENS,
  },
} as const satisfies Record<string, TestAccount>;

export type TestAccountName = keyof typeof testAccounts;

/** Amount val0 self-delegates in its genesis transaction (1,000 tokens: voting power 1,000). */
export const VAL0_SELF_DELEGATION = 1_000n * TOKENS;
