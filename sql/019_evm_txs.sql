-- EVM transactions with their receipts' fields: one row per EVM transaction, as the node's block
-- (eth_getBlockByNumber) and receipt (eth_getTransactionReceipt) give it. The Etherscan-style
-- txlist, tokentx and getLogs answer their transaction fields from here, not from the node.
-- A set migrated from an earlier version has rows for the blocks projected since; a re-index
-- fills the rest from the log.

CREATE TABLE IF NOT EXISTS {db}.evm_txs (
  block_number UInt64,
  tx_index UInt32 COMMENT 'the EVM transaction''s index in the block (the receipt''s transactionIndex)',
  hash String COMMENT 'lowercase 0x',
  block_hash String COMMENT 'lowercase 0x',
  time DateTime64(3, 'UTC') COMMENT 'the block time',
  from_address String COMMENT 'lowercase 0x',
  to_address String COMMENT 'lowercase 0x; empty for a creation',
  contract_address String COMMENT 'the contract a creation made, lowercase 0x; else empty',
  nonce UInt64,
  value UInt256,
  gas UInt64 COMMENT 'the gas limit',
  gas_price UInt256 COMMENT 'the receipt''s effectiveGasPrice (the transaction''s gasPrice if none)',
  gas_used UInt64,
  cumulative_gas_used UInt64,
  status UInt8 COMMENT 'the receipt''s status: 1 success, 0 failure',
  input String COMMENT 'the call data, 0x hex'
) ENGINE = ReplacingMergeTree ORDER BY (block_number, tx_index);

-- Index of EVM transactions: key = 'a:<from, to or created contract>' | 'x:<hash>'.
CREATE TABLE IF NOT EXISTS {db}.evm_tx_lookup (
  key String,
  block_number UInt64,
  tx_index UInt32
) ENGINE = ReplacingMergeTree ORDER BY (key, block_number, tx_index)
SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.evm_tx_lookup_mv TO {db}.evm_tx_lookup AS
SELECT key, block_number, tx_index
FROM {db}.evm_txs
ARRAY JOIN arrayDistinct(arrayConcat(
  [concat('x:', hash), concat('a:', from_address)],
  if(to_address != '', [concat('a:', to_address)], []),
  if(contract_address != '', [concat('a:', contract_address)], [])
)) AS key;
