-- Block records by height, in a key-value table (EmbeddedRocksDB), for `/blocks/{height}` (and
-- `/blocks/latest` when its answer is not in memory): one seek per height, where `blocks` gave a
-- granule of each column read (a record is ~9 KB, most of it the block's EVM hashes, which do
-- not compress). Measured on 1M transactions (13,889 blocks), 2 cores, 12 random heights per
-- query, 4 queries at once: 6.1 ms per query and 7,300 heights/s from `blocks`, 4.2 ms and 10,500
-- heights/s from here.
--
-- The key is the height, zero-padded to 12 digits, so that keys sort as heights do and the
-- projector's inserts append (see 011_tx_records.sql). A key holds one value: a replay writes the
-- same value again and nothing doubles. Filled by ClickHouse from each insert into `blocks`; an
-- existing set is filled from `blocks` once (a second or two per 10,000 blocks). A height with no
-- row here (a `blocks` insert that ran while this filled an existing set from a separate, live
-- projector) is read from `blocks` instead.

CREATE TABLE IF NOT EXISTS {db}.block_records
(
  key String COMMENT 'height, zero-padded to 12 digits: 000000012345',
  proposer_cons String COMMENT 'as in blocks',
  record String COMMENT 'the SPEC Block record (JSON) without proposer, as in blocks'
)
ENGINE = EmbeddedRocksDB
PRIMARY KEY key;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.block_records_mv TO {db}.block_records AS
SELECT leftPad(toString(height), 12, '0') AS key, proposer_cons, record
FROM {db}.blocks;

INSERT INTO {db}.block_records
SELECT leftPad(toString(height), 12, '0') AS key, proposer_cons, record
FROM {db}.blocks FINAL
ORDER BY height;
