-- Sums by UTC day of block time, for the counters and charts of `/stats/*` (docs/analytics.md):
-- a chart reads a row per day instead of adding up a row per block or transaction at each request.
--
-- A day is settled by the projector once a block of a later day is written (in the batch that
-- writes it, before its progress row): from `block_stats`, `tx_stats`, `token_transfers` and
-- `contracts` read
-- with FINAL, so the row is exact, and a replayed batch writes the same row again (it collapses;
-- the version is the day's last height). The API reads the settled days before the projected
-- block's day and adds up that day's rows, up to the projected height.
--
-- An existing set is filled at the first day a block closes after this migration; until then the
-- API adds up every day's rows, as before.

CREATE TABLE IF NOT EXISTS {db}.day_stats
(
  day Date,
  min_height UInt64,
  max_height UInt64,
  blocks UInt64,
  first_ms UInt64 COMMENT 'the first block''s time, ms since 1970',
  last_ms UInt64 COMMENT 'the last block''s time, ms since 1970',
  gas_used UInt256 COMMENT 'the EVM blocks'' gasUsed',
  gas_limit UInt256 COMMENT 'the EVM blocks'' gasLimit',
  size UInt256 COMMENT 'the EVM blocks'' size, bytes',
  evm_fee UInt256 COMMENT 'fees the EVM transactions paid',
  txs UInt64,
  evm_txs UInt64,
  cosmos_txs UInt64,
  success UInt64 COMMENT 'transactions with code 0',
  messages UInt64,
  fee_denoms Array(String) COMMENT 'fees the Cosmos transactions paid: denoms',
  fee_amounts Array(UInt256) COMMENT 'fees the Cosmos transactions paid: amounts, by denom',
  transfers UInt64 COMMENT 'token transfers (each ERC-1155 batch item)',
  contracts UInt64 COMMENT 'contracts created, by transactions or by other contracts'
)
ENGINE = ReplacingMergeTree(max_height)
ORDER BY day;
