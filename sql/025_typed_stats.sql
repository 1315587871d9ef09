-- Tokens, messages by type and delegators, for the counters and charts of `/stats/*`
-- (docs/analytics.md).
--
-- `block_messages` is written by the projector with a batch's other tables: per block, the
-- messages of each type URL in its transactions' bodies. `day_types` holds per UTC day of block
-- time the messages of each type and the token transfers of each token type; the projector
-- settles a day once a block of a later day is written, with `day_stats` (021), from the rows
-- read with FINAL. `token_seen` (each token's first reading as one) and `delegator_history` (the
-- readings of accounts that delegate or unbond) are filled by ClickHouse from the inserts into
-- `token_meta` and `addresses`. Each is keyed so that a replayed batch inserts the same rows again
-- and they collapse (read with FINAL).
--
-- An existing set is not filled: these start at the first block projected after this migration.
-- A re-index (`explorer reindex`) builds them over the whole log.

CREATE TABLE IF NOT EXISTS {db}.block_messages
(
  height UInt64,
  type String COMMENT 'a message type URL',
  messages UInt32 COMMENT 'messages of that type in the bodies of the block''s transactions'
)
ENGINE = ReplacingMergeTree
ORDER BY (height, type);

CREATE TABLE IF NOT EXISTS {db}.day_types
(
  kind LowCardinality(String) COMMENT 'messages, transfers, or blocks (a row each day)',
  type String COMMENT 'a message type URL, a token type (CFC-20, CFC-721, ERC-1155), or empty',
  day Date,
  max_height UInt64 COMMENT 'the day''s last height',
  n UInt64 COMMENT 'messages of the type, transfers (each ERC-1155 batch item) of the token type, or blocks'
)
ENGINE = ReplacingMergeTree(max_height)
ORDER BY (kind, type, day);

CREATE TABLE IF NOT EXISTS {db}.token_seen
(
  contract String COMMENT 'lowercase 0x',
  first_height SimpleAggregateFunction(min, UInt64) COMMENT 'its first reading as a CFC-20, CFC-721 or ERC-1155'
)
ENGINE = AggregatingMergeTree
ORDER BY contract;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.token_seen_mv TO {db}.token_seen AS
SELECT contract, height AS first_height FROM {db}.token_meta WHERE token_type != '';

CREATE TABLE IF NOT EXISTS {db}.delegator_history
(
  address String COMMENT 'bech32',
  height UInt64,
  delegating UInt8 COMMENT '1: it had a delegation at the end of the block'
)
ENGINE = ReplacingMergeTree
ORDER BY (address, height);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.delegator_history_mv TO {db}.delegator_history AS
SELECT address, height, toUInt8(delegations != '[]') AS delegating FROM {db}.addresses
WHERE delegations != '[]' OR unbonding_delegations != '[]';
