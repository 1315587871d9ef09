-- Analytics: a narrow row per block and per transaction, for the counters and charts of
-- `/stats/*` (docs/analytics.md). The charts add these rows up by UTC day of block time at query
-- time, bounded by `progress.height` like every history read.
--
-- Filled by ClickHouse from each insert into `blocks` and `txs` (materialized views), in the same
-- insert: a batch's rows are in place before its progress row, as the lookup tables' are. Keyed by
-- the block's height (and the transaction's index): a replayed or re-written batch inserts the same
-- rows again and they collapse (read with FINAL). Sums kept by day in a SummingMergeTree would
-- count a replayed block twice; these cannot.
--
-- An existing set is filled from `blocks` and `txs` once (with FINAL: one row per key).

CREATE TABLE IF NOT EXISTS {db}.block_stats
(
  height UInt64,
  time DateTime64(3, 'UTC'),
  day Date COMMENT 'UTC day of the block time',
  txs UInt32 COMMENT 'transactions in the block',
  evm_txs UInt32 COMMENT 'EVM transactions (receipts) in the block',
  gas_used UInt64 COMMENT 'the EVM block''s gasUsed',
  gas_limit UInt64 COMMENT 'the EVM block''s gasLimit',
  size UInt64 COMMENT 'the EVM block''s size, bytes'
)
ENGINE = ReplacingMergeTree
ORDER BY height;

CREATE TABLE IF NOT EXISTS {db}.tx_stats
(
  height UInt64,
  idx UInt32,
  day Date COMMENT 'UTC day of the block time',
  code UInt32 COMMENT 'as the record: 0 success',
  is_evm UInt8,
  messages UInt32 COMMENT 'messages in the body (an authz MsgExec is one)',
  gas_used UInt64,
  gas_wanted UInt64,
  fee_denoms Array(String) COMMENT 'auth_info.fee.amount, denoms',
  fee_amounts Array(UInt256) COMMENT 'auth_info.fee.amount, amounts (what the signer offered)'
)
ENGINE = ReplacingMergeTree
ORDER BY (height, idx);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.block_stats_mv TO {db}.block_stats AS
SELECT
  height,
  time,
  toDate(time) AS day,
  tx_count AS txs,
  evm_tx_count AS evm_txs,
  reinterpretAsUInt64(reverse(unhex(leftPad(substring(JSONExtractString(record, 'evm', 'gasUsed'), 3), 16, '0')))) AS gas_used,
  reinterpretAsUInt64(reverse(unhex(leftPad(substring(JSONExtractString(record, 'evm', 'gasLimit'), 3), 16, '0')))) AS gas_limit,
  toUInt64OrZero(JSONExtractString(record, 'block_size')) AS size
FROM {db}.blocks;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.tx_stats_mv TO {db}.tx_stats AS
SELECT
  height,
  idx,
  toDate(time) AS day,
  code,
  is_evm,
  JSONLength(record, 'body', 'messages') AS messages,
  toUInt64OrZero(JSONExtractString(record, 'gas_used')) AS gas_used,
  toUInt64OrZero(JSONExtractString(record, 'gas_wanted')) AS gas_wanted,
  arrayMap(c -> JSONExtractString(c, 'denom'), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_denoms,
  arrayMap(c -> toUInt256OrZero(JSONExtractString(c, 'amount')), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_amounts
FROM {db}.txs;

INSERT INTO {db}.block_stats
SELECT
  height,
  time,
  toDate(time) AS day,
  tx_count AS txs,
  evm_tx_count AS evm_txs,
  reinterpretAsUInt64(reverse(unhex(leftPad(substring(JSONExtractString(record, 'evm', 'gasUsed'), 3), 16, '0')))) AS gas_used,
  reinterpretAsUInt64(reverse(unhex(leftPad(substring(JSONExtractString(record, 'evm', 'gasLimit'), 3), 16, '0')))) AS gas_limit,
  toUInt64OrZero(JSONExtractString(record, 'block_size')) AS size
FROM {db}.blocks FINAL
ORDER BY height;

INSERT INTO {db}.tx_stats
SELECT
  height,
  idx,
  toDate(time) AS day,
  code,
  is_evm,
  JSONLength(record, 'body', 'messages') AS messages,
  toUInt64OrZero(JSONExtractString(record, 'gas_used')) AS gas_used,
  toUInt64OrZero(JSONExtractString(record, 'gas_wanted')) AS gas_wanted,
  arrayMap(c -> JSONExtractString(c, 'denom'), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_denoms,
  arrayMap(c -> toUInt256OrZero(JSONExtractString(c, 'amount')), JSONExtractArrayRaw(record, 'auth_info', 'fee', 'amount')) AS fee_amounts
FROM {db}.txs FINAL
ORDER BY height, idx;
