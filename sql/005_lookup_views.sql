-- The lookup tables are filled by ClickHouse itself: each materialized view below turns the rows
-- inserted into its base table into index entries, in the same INSERT (so a batch's lookups are in
-- place before its progress row, and a replay inserts the same entries again, which collapse).
-- The keys are those of 001_chain.sql and 003_evm.sql.

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.tx_lookup_mv TO {db}.tx_lookup AS
SELECT key, height, idx
FROM {db}.txs
ARRAY JOIN arrayConcat(
  [concat('h:', txhash)],
  arrayMap(x -> concat('e:', x), evm_hashes),
  arrayMap(x -> concat('a:', x), addresses),
  arrayMap(x -> concat('m:', x), message_types)
) AS key;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.log_lookup_mv TO {db}.log_lookup AS
SELECT key, block_number, log_index
FROM {db}.event_logs
ARRAY JOIN arrayConcat(
  [concat('c:', contract), concat('o:', origin), concat('x:', tx_hash), concat('b:', block_hash)],
  if(notEmpty(topics) AND topics[1] != '', [concat('t0:', topics[1])], [])
) AS key;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.transfer_lookup_mv TO {db}.transfer_lookup AS
SELECT key, block_number, log_index, sub
FROM {db}.token_transfers
ARRAY JOIN arrayDistinct(arrayConcat(
  [
    concat('c:', contract),
    concat('a:', from_address),
    concat('a:', to_address),
    concat('f:', from_address),
    concat('t:', to_address),
    concat('x:', tx_hash)
  ],
  if(token_id != '', [concat('i:', contract, ':', token_id)], [])
)) AS key;
