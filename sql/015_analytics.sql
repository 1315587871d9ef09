-- Analytics: a narrow row per block and per transaction, for the counters and charts of
-- `/stats/*` (docs/analytics.md). The charts add these rows up by UTC day of block time at query
-- time, bounded by `progress.height` like every history read.
--
-- `block_stats` is written by the projector with a batch's other tables (it holds what only the
-- raw block has: the EVM receipts' fees). `tx_stats` is filled by ClickHouse from each insert into
-- `txs` (a materialized view), in the same insert. Either way a batch's rows are in place before
-- its progress row. Keyed by height (and the transaction's index): a replayed or re-written batch
-- inserts the same rows again and they collapse (read with FINAL). Sums kept by day in a
-- SummingMergeTree would count a replayed block twice; these cannot.
--
-- An existing set is not filled: its charts start at the first block projected after this
-- migration. A re-index (`explorer reindex`) builds them over the whole log.

CREATE TABLE IF NOT EXISTS {db}.block_stats
(
  height UInt64,
  time DateTime64(3, 'UTC'),
  txs UInt32 COMMENT 'transactions in the block',
  evm_txs UInt32 COMMENT 'EVM transactions (receipts) in the block',
  gas_used UInt64 COMMENT 'the EVM block''s gasUsed',
  gas_limit UInt64 COMMENT 'the EVM block''s gasLimit',
  size UInt64 COMMENT 'the EVM block''s size, bytes',
  evm_fee UInt256 COMMENT 'fees the EVM transactions paid: receipts'' gasUsed × effectiveGasPrice'
)
ENGINE = ReplacingMergeTree
ORDER BY height;

CREATE TABLE IF NOT EXISTS {db}.tx_stats
(
  height UInt64,
  idx UInt32,
  time DateTime64(3, 'UTC') COMMENT 'the block time',
  code UInt32 COMMENT 'as the record: 0 success',
  is_evm UInt8,
  messages UInt32 COMMENT 'messages in the body (an authz MsgExec is one)',
  fee_denoms Array(String) COMMENT 'auth_info.fee.amount, denoms',
  fee_amounts Array(UInt256) COMMENT 'auth_info.fee.amount, amounts: what a Cosmos tx paid'
)
ENGINE = ReplacingMergeTree
ORDER BY (height, idx);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.tx_stats_mv TO {db}.tx_stats AS
SELECT
  height,
  idx,
  time,
  code,
  is_evm,
  JSONLength(record, 'body', 'messages') AS messages,
  arrayMap(c -> JSONExtractString(c, 'denom'), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_denoms,
  arrayMap(c -> toUInt256OrZero(JSONExtractString(c, 'amount')), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_amounts
FROM {db}.txs;
