-- Smaller granules for the tables whose rows are large (a JSON record, a log's data): a lookup of
-- one row reads and decompresses one granule of each column it selects, and with ClickHouse's
-- default (up to 8,192 rows or 10 MiB per granule) that was ~6 MiB per block or transaction looked
-- up. With granules of at most 256 KiB a lookup costs a few hundred KiB.
--
-- The setting is fixed when a table is created, so each table is rebuilt: copied into a new table
-- with the setting, swapped in by EXCHANGE, the old one dropped. The materialized views that read
-- these tables (005_lookup_views.sql) are dropped first and created again after, as they were.
-- Rerunnable: an interrupted run starts again from a fresh copy. On a large table set this copies
-- the tables once (a re-index into a new set gets the setting from the start as well).

DROP VIEW IF EXISTS {db}.tx_lookup_mv;
DROP VIEW IF EXISTS {db}.log_lookup_mv;

DROP TABLE IF EXISTS {db}.blocks_rebuilt;
CREATE TABLE {db}.blocks_rebuilt AS {db}.blocks
ENGINE = ReplacingMergeTree ORDER BY height SETTINGS index_granularity_bytes = 262144;
INSERT INTO {db}.blocks_rebuilt SELECT * FROM {db}.blocks;
EXCHANGE TABLES {db}.blocks AND {db}.blocks_rebuilt;
DROP TABLE {db}.blocks_rebuilt;

DROP TABLE IF EXISTS {db}.txs_rebuilt;
CREATE TABLE {db}.txs_rebuilt AS {db}.txs
ENGINE = ReplacingMergeTree ORDER BY (height, idx) SETTINGS index_granularity_bytes = 262144;
INSERT INTO {db}.txs_rebuilt SELECT * FROM {db}.txs;
EXCHANGE TABLES {db}.txs AND {db}.txs_rebuilt;
DROP TABLE {db}.txs_rebuilt;

DROP TABLE IF EXISTS {db}.event_logs_rebuilt;
CREATE TABLE {db}.event_logs_rebuilt AS {db}.event_logs
ENGINE = ReplacingMergeTree ORDER BY (block_number, log_index) SETTINGS index_granularity_bytes = 262144;
INSERT INTO {db}.event_logs_rebuilt SELECT * FROM {db}.event_logs;
EXCHANGE TABLES {db}.event_logs AND {db}.event_logs_rebuilt;
DROP TABLE {db}.event_logs_rebuilt;

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
