-- Transaction records by position, in a key-value table (EmbeddedRocksDB), for `/txs/{hash}`: the
-- hash's place in `tx_hash`, then the record here, one seek each, read in one query (a direct
-- join). Reading a record from `txs` decompressed its granule of 256 KiB, often two, per key.
-- Measured on 1M transactions, 2 cores, CPU of reading 50 random transactions: 18.5 ms through
-- `tx_hash` then `txs`, 6.6-8 ms through `tx_hash` then `tx_records`.
--
-- The key is the position, height then index in the block, zero-padded (12 and 7 digits) so that
-- keys sort as positions do: the projector writes them in increasing order, so RocksDB adds each
-- batch's file after the others instead of merging it into them. The record kept with the hash
-- instead (keys in random order) cost the projector 19% of its throughput; this costs it 4-6%.
-- Its disk: about 1.6 KB per transaction (RocksDB's compression), beside ~0.9 KB in `txs`.
--
-- Filled by ClickHouse from each insert into `txs`, like `tx_hash`; an existing set is filled from
-- `txs` once (about 30 s per million transactions; with FINAL, so that unmerged copies of a row
-- cannot leave another record than `/txs` reads). A key holds one value: a replay writes the same
-- value again and nothing doubles, so running this again changes nothing.

CREATE TABLE IF NOT EXISTS {db}.tx_records
(
  key String COMMENT 'height (12 digits) then idx (7 digits), zero-padded: 0000000012340000005',
  record String COMMENT 'the SPEC Transaction record (JSON), as in txs'
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.tx_records_mv TO {db}.tx_records AS
SELECT concat(leftPad(toString(height), 12, '0'), leftPad(toString(idx), 7, '0')) AS key, record
FROM {db}.txs;

INSERT INTO {db}.tx_records
SELECT concat(leftPad(toString(height), 12, '0'), leftPad(toString(idx), 7, '0')) AS key, record
FROM {db}.txs FINAL
ORDER BY height, idx;
