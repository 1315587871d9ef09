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

REBUILD TABLE {db}.blocks
ENGINE = ReplacingMergeTree ORDER BY height SETTINGS index_granularity_bytes = 262144;

REBUILD TABLE {db}.txs
ENGINE = ReplacingMergeTree ORDER BY (height, idx) SETTINGS index_granularity_bytes = 262144;

REBUILD TABLE {db}.event_logs
ENGINE = ReplacingMergeTree ORDER BY (block_number, log_index) SETTINGS index_granularity_bytes = 262144;

REPEAT CREATE {db}.tx_lookup_mv FROM 005_lookup_views.sql;

REPEAT CREATE {db}.log_lookup_mv FROM 005_lookup_views.sql;
