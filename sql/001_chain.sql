-- Blocks, transactions and their lookups. {db} is the table set (see sql/README.md).

-- One row per block. `record` is the Block record of the SPEC as JSON, except `proposer`, which the
-- API fills in from the validators table (`proposer_cons` is the proposer's consensus address).
CREATE TABLE IF NOT EXISTS {db}.blocks (
  height UInt64,
  time DateTime64(3, 'UTC'),
  block_hash String,
  proposer_cons String,
  tx_count UInt32,
  evm_tx_count UInt32,
  txs_before UInt64 COMMENT 'transactions in all earlier blocks: page positions without OFFSET scans',
  record String
) ENGINE = ReplacingMergeTree ORDER BY height;

-- One row per transaction; `record` is the SPEC Transaction record as JSON.
CREATE TABLE IF NOT EXISTS {db}.txs (
  height UInt64,
  idx UInt32 COMMENT 'position in the block',
  txhash String COMMENT 'CometBFT hash, uppercase hex',
  time DateTime64(3, 'UTC'),
  code UInt32,
  is_evm UInt8,
  evm_hashes Array(String),
  message_types Array(String),
  addresses Array(String) COMMENT 'involved accounts, both forms, lowercase',
  record String
) ENGINE = ReplacingMergeTree ORDER BY (height, idx);

-- Index of transactions by hash, EVM hash, address and message type:
-- key = 'h:<TXHASH>' | 'e:<0xevmhash>' | 'a:<address lowercase>' | 'm:<type url>'.
CREATE TABLE IF NOT EXISTS {db}.tx_lookup (
  key String,
  height UInt64,
  idx UInt32
) ENGINE = ReplacingMergeTree ORDER BY (key, height, idx);

-- Projection progress: the API never reads past `height`.
CREATE TABLE IF NOT EXISTS {db}.progress (
  name String,
  height UInt64,
  txs_total UInt64
) ENGINE = ReplacingMergeTree(height) ORDER BY name;

-- Chain-wide state per block: supply, bonded tokens, inflation, community pool (JSON as the node gives it).
CREATE TABLE IF NOT EXISTS {db}.chain_state (
  height UInt64,
  supply String,
  bonded_tokens String,
  not_bonded_tokens String,
  inflation String,
  community_pool String
) ENGINE = ReplacingMergeTree ORDER BY height;
