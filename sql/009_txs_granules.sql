-- `txs` back to 006_small_granules.sql's granules (at most 256 KiB, default compressed blocks),
-- undoing 007_point_granules.sql for this table only (`blocks` and `tx_lookup` keep 007's).
--
-- 007's 32 KiB granules and 8 KiB compressed blocks made a transaction read by (height, idx) ~30%
-- cheaper, but cost the projector on every block: measured on 280,000 transactions (2 cores), the
-- `txs` insert 1.1-1.55 against 0.8-0.86 ms of CPU per 70-tx block, and merging its parts 2.2
-- against 0.85-0.9 ms. Since 008_tx_hash.sql a lookup by hash no longer reads `tx_lookup`, which
-- was most of its cost, so the trade is made the other way.
--
-- Rebuilt as in 006 and 007 (the view that reads `txs` and writes `tx_lookup`, and since 008 the
-- one that writes `tx_hash`, are dropped first and created again after, as they were). Rerunnable.
-- About 15 s per million transactions on 2 cores.

DROP VIEW IF EXISTS {db}.tx_lookup_mv;
DROP VIEW IF EXISTS {db}.tx_hash_mv;

REBUILD TABLE {db}.txs
ENGINE = ReplacingMergeTree ORDER BY (height, idx) SETTINGS index_granularity_bytes = 262144;

REPEAT CREATE {db}.tx_lookup_mv FROM 005_lookup_views.sql;

REPEAT CREATE {db}.tx_hash_mv FROM 008_tx_hash.sql;
