/**
 * The days of the scoped charts (`?address=`, `?contractAddress=`, `?validator=`): per UTC day of
 * block time, what one account, token or validator did, from the lookup tables and the histories
 * of sql/020. Each groups its rows by height first, then takes the heights' times from
 * `block_stats`, bounded by the projected height like every read. The blocks a validator signed
 * and missed are kept by day (validator-days.ts).
 */

/** What a scoped chart is scoped by: the query parameter that names it. */
export type Scope = "address" | "contractAddress" | "validator";

export type ScopedSource =
  | "accountTxs"
  | "accountBalance"
  | "tokenTransfers"
  | "tokenHolders"
  | "validatorPower";

/** Per height of the scope's rows, then per day (the heights' block times). */
const byDay = (perHeight: string, cols: string) => `SELECT toDate(b.time) AS day, ${cols}
FROM {db}.block_stats AS b FINAL INNER JOIN (${perHeight}) AS h ON h.height = b.height
WHERE b.height <= {projected} GROUP BY day`;

/** The transactions involving the account (either form), as its transaction list has them. */
const ACCOUNT_TXS = byDay(
  `SELECT height, count() AS n FROM (SELECT DISTINCT height, idx FROM {db}.tx_lookup
    WHERE key IN ({keys:Array(String)}) AND height <= {projected}) GROUP BY height`,
  "sum(h.n) AS account_txs",
);

/** The account's native balance at the day's last reading (a reading: a block touching it). */
const ACCOUNT_BALANCE = byDay(
  `SELECT height, amount FROM {db}.balance_history FINAL
    WHERE address = {address:String} AND denom = {denom:String} AND height <= {projected}`,
  "argMax(h.amount, h.height) AS balance, count() AS readings",
);

/** The token's transfers (an ERC-1155 batch counts each of its items). */
const TOKEN_TRANSFERS = byDay(
  `SELECT block_number AS height, count() AS n FROM {db}.transfer_lookup FINAL
    WHERE key = concat('c:', {contract:String}) AND block_number <= {projected} GROUP BY height`,
  "sum(h.n) AS token_transfers",
);

/**
 * The change in the token's holders: accounts (never the zero address) holding a positive
 * balance of it (of any of its ids), as the token answered at each block touching them.
 */
const TOKEN_HOLDERS = byDay(
  `SELECT height, sum(d) AS n FROM (
    SELECT height, toInt64(holds) - toInt64(lagInFrame(holds, 1, 0) OVER w) AS d FROM (
      SELECT holder, height, sum(positions) OVER (PARTITION BY holder ORDER BY height
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) > 0 AS holds FROM (
        SELECT holder, height, sum(d) AS positions FROM (
          SELECT holder, height, toInt64(balance > 0) - toInt64(lagInFrame(balance > 0, 1, 0)
            OVER (PARTITION BY holder, token_id ORDER BY height
              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) AS d
          FROM {db}.token_balance_history FINAL
          WHERE contract = {contract:String} AND height <= {projected}
            AND holder != '0x0000000000000000000000000000000000000000')
        GROUP BY holder, height))
    WINDOW w AS (PARTITION BY holder ORDER BY height ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
  GROUP BY height`,
  "sum(h.n) AS holders",
);

/** The tokens staked to the validator while bonded (0 otherwise), at the day's last reading. */
const VALIDATOR_POWER = byDay(
  `SELECT height, if(status = 'BOND_STATUS_BONDED', tokens, 0) AS power
    FROM {db}.validator_history FINAL
    WHERE operator_address = {validator:String} AND height <= {projected}`,
  "argMax(h.power, h.height) AS power, count() AS readings",
);

/** Each scoped source: its scope, its days' SQL, and its parts (daily.ts reads them). */
export const SCOPED: Readonly<
  Record<ScopedSource, { scope: Scope; sql: string; parts: Readonly<Record<string, string>> }>
> = {
  accountTxs: { scope: "address", sql: ACCOUNT_TXS, parts: { txs: "account_txs" } },
  accountBalance: {
    scope: "address",
    sql: ACCOUNT_BALANCE,
    parts: { balance: "balance", readings: "readings" },
  },
  tokenTransfers: {
    scope: "contractAddress",
    sql: TOKEN_TRANSFERS,
    parts: { transfers: "token_transfers" },
  },
  tokenHolders: { scope: "contractAddress", sql: TOKEN_HOLDERS, parts: { holders: "holders" } },
  validatorPower: {
    scope: "validator",
    sql: VALIDATOR_POWER,
    parts: { power: "power", readings: "readings" },
  },
};

/** `f` of each scoped source, by source. */
export const eachScoped = <T>(
  f: (s: (typeof SCOPED)[ScopedSource]) => T,
): Record<ScopedSource, T> =>
  Object.fromEntries(Object.entries(SCOPED).map(([k, v]) => [k, f(v)])) as Record<ScopedSource, T>;
