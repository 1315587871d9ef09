-- EVM: event logs, contracts, tokens, transfers, holders, inventory, NFT metadata.

CREATE TABLE IF NOT EXISTS {db}.event_logs (
  block_number UInt64,
  log_index UInt32 COMMENT 'index in the block',
  tx_index UInt32,
  tx_log_index UInt32 COMMENT 'index in the transaction',
  block_hash String,
  tx_hash String,
  contract String COMMENT 'lowercase 0x',
  origin String COMMENT 'the transaction sender, lowercase 0x',
  topics Array(String),
  data String,
  time DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree ORDER BY (block_number, log_index);

-- Index of logs: key = 'c:<contract>' | 'o:<origin>' | 'x:<tx hash>' | 'b:<block hash>' | 't0:<topic0>'.
CREATE TABLE IF NOT EXISTS {db}.log_lookup (
  key String,
  block_number UInt64,
  log_index UInt32
) ENGINE = ReplacingMergeTree ORDER BY (key, block_number, log_index);

-- Contracts, created by transactions or by other contracts.
CREATE TABLE IF NOT EXISTS {db}.contracts (
  address String,
  creator String,
  tx_hash String,
  block_number UInt64,
  time DateTime64(3, 'UTC'),
  code String,
  input String,
  token_type String COMMENT 'CFC-20, CFC-721, ERC-1155 or empty',
  name String,
  symbol String,
  decimals Nullable(UInt8),
  total_supply String
) ENGINE = ReplacingMergeTree ORDER BY address;

-- Total supply of tokens as of the last block that touched them.
CREATE TABLE IF NOT EXISTS {db}.token_supply (
  contract String,
  height UInt64,
  total_supply UInt256
) ENGINE = ReplacingMergeTree(height) ORDER BY contract;

-- Token transfers: CFC-20, CFC-721 and ERC-1155 (`sub` numbers the items of a TransferBatch).
CREATE TABLE IF NOT EXISTS {db}.token_transfers (
  block_number UInt64,
  log_index UInt32,
  sub UInt32,
  tx_hash String,
  contract String,
  from_address String,
  to_address String,
  value UInt256,
  token_id String,
  token_type String,
  time DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree ORDER BY (block_number, log_index, sub);

-- Index of transfers: key = 'c:<contract>' | 'a:<address>' | 'f:<from>' | 't:<to>' | 'x:<tx hash>' | 'i:<contract>:<token id>'.
CREATE TABLE IF NOT EXISTS {db}.transfer_lookup (
  key String,
  block_number UInt64,
  log_index UInt32,
  sub UInt32
) ENGINE = ReplacingMergeTree ORDER BY (key, block_number, log_index, sub);

-- Holder balances as the token itself answers balanceOf at the block (token_id '' for CFC-20/721).
CREATE TABLE IF NOT EXISTS {db}.token_holders (
  contract String,
  holder String,
  token_id String,
  balance UInt256,
  height UInt64,
  time DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree(height) ORDER BY (contract, holder, token_id);

-- Non-fungible tokens: owner and tokenURI as of the last block that touched them.
CREATE TABLE IF NOT EXISTS {db}.token_inventory (
  contract String,
  token_id String,
  owner String COMMENT 'empty once burned',
  token_uri String,
  height UInt64,
  time DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree(height) ORDER BY (contract, token_id);

-- Off-chain metadata behind a tokenURI (from the log's metadata records).
CREATE TABLE IF NOT EXISTS {db}.nft_metadata (
  contract String,
  token_id String,
  token_uri String,
  metadata String COMMENT 'JSON object, or empty with error',
  error String,
  height UInt64
) ENGINE = ReplacingMergeTree(height) ORDER BY (contract, token_id, token_uri);
