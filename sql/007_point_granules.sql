-- Granules sized for point lookups in the tables read one row at a time: a transaction by hash
-- (`tx_lookup`, then `txs`) and a block by height. Measured on 1M transactions, CPU per key in a
-- batch of 25-50 keys: `tx_lookup` 0.83 -> ~0.2 ms, `txs` ~0.43 -> ~0.25 ms, `blocks` ~0.25 -> ~0.2 ms.
--
-- - `tx_lookup`: 256 rows per granule (was 8,192: a hash looked up read ~8,000 keys).
-- - `txs`, `blocks`: granules of at most 32 KiB (was 256 KiB, 006_small_granules.sql).
-- - All three: compressed blocks from 4-8 KiB (`min_compress_block_size`, default 64 KiB). A block
--   holds whole granules, so with the default one block of a narrow column (height, idx) spans
--   thousands of rows, all decompressed to read one. About 20% more disk for `txs`.
--
-- Rebuilt as in 006: copied into a new table with the settings, swapped in by EXCHANGE, the old one
-- dropped; the materialized view that reads `txs` and writes `tx_lookup` (005_lookup_views.sql) is
-- dropped first and created again after, as it was. Rerunnable. About 30 s per million transactions
-- on 2 cores.

DROP VIEW IF EXISTS {db}.tx_lookup_mv;

REBUILD TABLE {db}.tx_lookup
ENGINE = ReplacingMergeTree ORDER BY (key, height, idx)
SETTINGS index_granularity = 256, min_compress_block_size = 4096;

REBUILD TABLE {db}.txs
ENGINE = ReplacingMergeTree ORDER BY (height, idx)
SETTINGS index_granularity_bytes = 32768, min_compress_block_size = 8192;

REBUILD TABLE {db}.blocks
ENGINE = ReplacingMergeTree ORDER BY height
SETTINGS index_granularity_bytes = 32768, min_compress_block_size = 8192;

REPEAT CREATE {db}.tx_lookup_mv FROM 005_lookup_views.sql;
