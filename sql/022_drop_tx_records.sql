-- `tx_records` (011_tx_records.sql) dropped: the API's record cache answers `/txs/{hash}` (on by
-- default), so the table only served the cache's misses (a record projected less than a second
-- ago, a cache still filling after a start, `--record-cache off`). It cost about 1.7 KB per
-- transaction, more than `txs` itself (~0.9 KB), and 4-6% of the projector's throughput.
-- Measured on 1M transactions, 2 cores, one key per lookup: the store's read through `tx_hash`
-- then `tx_records` took p50 4.5 ms (4.7 ms CPU), through `tx_hash` then a granule of `txs`
-- p50 8.6 ms (8.9 ms CPU). A miss now pays the second.
--
-- The view goes first, so no insert into `txs` writes the table while it is dropped. Rerunnable.

DROP VIEW IF EXISTS {db}.tx_records_mv;

DROP TABLE IF EXISTS {db}.tx_records SYNC;
