-- Accounts and native coin analytics for `/stats/*` (docs/analytics.md): active and new accounts,
-- native coin transfers and holders, by UTC day of block time.
--
-- `account_activity` and `native_transfer_stats` are written by the projector with a batch's
-- other tables (they come from the raw block: the signers in the transactions' events, the EVM
-- senders, the bank sends). `account_firsts` is filled by ClickHouse from each insert into
-- `account_activity`. `account_day_stats` is settled by the projector like `day_stats` (021):
-- once a block of a later day is written, before the batch's progress row, from the rows above
-- and `balance_history` (020) read with FINAL, so a replayed batch writes the same row again.
--
-- An existing set is not filled: these start at its first block projected after this migration
-- (accounts seen before count as new then). A re-index (`explorer reindex`) builds them over
-- the whole log.

CREATE TABLE IF NOT EXISTS {db}.account_activity
(
  height UInt64,
  address String COMMENT 'bech32: signed a transaction of the block (acc_seq) or sent an EVM one',
  time DateTime64(3, 'UTC') COMMENT 'the block time'
)
ENGINE = ReplacingMergeTree
ORDER BY (height, address);

-- The first height at which each account was active, in all (`ever`) and in each year, month
-- and week (from Monday) of block time. A min: a replayed row changes nothing; read with min()
-- grouped by the key.
CREATE TABLE IF NOT EXISTS {db}.account_firsts
(
  address String,
  kind LowCardinality(String) COMMENT 'ever, year, month or week',
  period Date COMMENT 'the first day of the year, month or week; 1970-01-01 for ever',
  first_height SimpleAggregateFunction(min, UInt64)
)
ENGINE = AggregatingMergeTree
ORDER BY (address, kind, period);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.account_firsts_mv TO {db}.account_firsts AS
SELECT address, k.1 AS kind, k.2 AS period, height AS first_height
FROM {db}.account_activity
ARRAY JOIN [
  ('ever', toDate(0)),
  ('year', toStartOfYear(toDate(time))),
  ('month', toStartOfMonth(toDate(time))),
  ('week', toMonday(toDate(time)))
] AS k;

CREATE TABLE IF NOT EXISTS {db}.native_transfer_stats
(
  height UInt64,
  time DateTime64(3, 'UTC'),
  evm_transfers UInt32 COMMENT 'successful EVM transactions with a value > 0',
  bank_denoms Array(String) COMMENT 'denoms sent by successful bank MsgSend / MsgMultiSend',
  bank_transfers Array(UInt32) COMMENT 'per denom: MsgSend and MsgMultiSend outputs carrying it'
)
ENGINE = ReplacingMergeTree
ORDER BY height;

CREATE TABLE IF NOT EXISTS {db}.account_day_stats
(
  day Date,
  max_height UInt64 COMMENT 'the day''s last block',
  active UInt64 COMMENT 'accounts active that day',
  active_week UInt64 COMMENT 'of them, first active in the week that day',
  active_month UInt64 COMMENT 'of them, first active in the month that day',
  active_year UInt64 COMMENT 'of them, first active in the year that day',
  new_accounts UInt64 COMMENT 'of them, first active ever that day',
  evm_transfers UInt64,
  bank_denoms Array(String),
  bank_transfers Array(UInt64),
  holder_denoms Array(String) COMMENT 'native denoms whose holders changed',
  holders_in Array(UInt64) COMMENT 'per denom: accounts whose balance went from 0 to > 0',
  holders_out Array(UInt64) COMMENT 'per denom: accounts whose balance went from > 0 to 0'
)
ENGINE = ReplacingMergeTree(max_height)
ORDER BY day;

-- The native balance readings of `address_balances` by height, so that a day's changes of
-- holders are read from its heights (`balance_history` is keyed by account).
CREATE TABLE IF NOT EXISTS {db}.balance_readings
(
  height UInt64,
  denom String,
  address String COMMENT 'bech32',
  amount UInt256
)
ENGINE = ReplacingMergeTree
ORDER BY (height, denom, address);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.balance_readings_mv TO {db}.balance_readings AS
SELECT height, denom, address, amount FROM {db}.address_balances;
