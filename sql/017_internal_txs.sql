-- Internal transactions: every frame of each EVM transaction's call tree, as the node's call
-- tracer (debug_traceBlockByNumber, callTracer) gave it in the block's record. The root frame
-- (trace_address []) is the transaction itself; the others are the calls, creations and
-- self-destructs it made. A node without the debug namespace gives no traces: its blocks have
-- no rows here. A set migrated from an earlier version has rows for the blocks projected since;
-- a re-index fills the rest from the log.

CREATE TABLE IF NOT EXISTS {db}.internal_txs (
  block_number UInt64,
  tx_index UInt32 COMMENT 'the EVM transaction''s index in the block',
  trace_index UInt32 COMMENT 'the frame''s place in its transaction, depth first (0: the root)',
  tx_hash String COMMENT 'lowercase 0x EVM hash',
  trace_address Array(UInt32) COMMENT 'the path from the root: [] the root, [0, 1] the 2nd call of the 1st',
  type String COMMENT 'call, delegatecall, staticcall, callcode, create, create2, selfdestruct',
  from_address String COMMENT 'lowercase 0x',
  to_address String COMMENT 'lowercase 0x; the new contract of a create',
  value UInt256,
  gas UInt64,
  gas_used UInt64,
  input_size UInt32 COMMENT 'bytes',
  output_size UInt32 COMMENT 'bytes',
  error String COMMENT 'the frame''s own failure, or empty',
  time DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree ORDER BY (block_number, tx_index, trace_index);

-- Index of internal transactions: key = 'a:<from or to>' | 'x:<tx hash>'.
CREATE TABLE IF NOT EXISTS {db}.internal_tx_lookup (
  key String,
  block_number UInt64,
  tx_index UInt32,
  trace_index UInt32
) ENGINE = ReplacingMergeTree ORDER BY (key, block_number, tx_index, trace_index);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.internal_tx_lookup_mv TO {db}.internal_tx_lookup AS
SELECT key, block_number, tx_index, trace_index
FROM {db}.internal_txs
ARRAY JOIN arrayDistinct(arrayConcat(
  [concat('x:', tx_hash), concat('a:', from_address)],
  if(to_address != '', [concat('a:', to_address)], [])
)) AS key;
