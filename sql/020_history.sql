-- History for the scoped charts of `/stats/lines/{id}` (docs/analytics.md): every reading of a
-- native balance, a token balance and a validator, by height. `address_balances`,
-- `token_holders` and `validators` keep only the latest reading of each key once merged; these
-- keep them all. Each is filled by ClickHouse from the inserts into its source (a materialized
-- view), in the same insert, and keyed by what a chart asks for, then height: a replayed batch
-- inserts the same rows again and they collapse (read with FINAL).
--
-- An existing set is not filled: its scoped charts start at the first block projected after this
-- migration. A re-index (`explorer reindex`) builds them over the whole log.

CREATE TABLE IF NOT EXISTS {db}.balance_history
(
  address String COMMENT 'bech32',
  denom String,
  height UInt64,
  amount UInt256 COMMENT 'the bank balance at the end of the block'
)
ENGINE = ReplacingMergeTree
ORDER BY (address, denom, height);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.balance_history_mv TO {db}.balance_history AS
SELECT address, denom, height, amount FROM {db}.address_balances;

CREATE TABLE IF NOT EXISTS {db}.token_balance_history
(
  contract String COMMENT 'lowercase 0x',
  holder String COMMENT 'lowercase 0x',
  token_id String COMMENT 'empty but for ERC-1155',
  height UInt64,
  balance UInt256 COMMENT 'as the token answered at the end of the block'
)
ENGINE = ReplacingMergeTree
ORDER BY (contract, height, holder, token_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.token_balance_history_mv TO {db}.token_balance_history AS
SELECT contract, holder, token_id, height, balance FROM {db}.token_holders;

CREATE TABLE IF NOT EXISTS {db}.validator_history
(
  operator_address String,
  height UInt64,
  status String COMMENT 'BOND_STATUS_…',
  tokens UInt256 COMMENT 'the tokens staked to it, base denom'
)
ENGINE = ReplacingMergeTree
ORDER BY (operator_address, height);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.validator_history_mv TO {db}.validator_history AS
SELECT operator_address, height, status, tokens FROM {db}.validators;
