-- A full match replaces a partial one. A partial match (the code equal, the metadata hash not:
-- other comments, license line, file names or settings that compile to the same code) proves the
-- code, not what the submitter said around it. Anyone may submit one, so it must not keep the
-- owner's full match out: the API takes a full match for an address that has a partial one, and
-- records it in the log under its own key (`verify.<address>.full`). This table then keeps the full
-- row whatever the order the two records are projected in: `full_match` is its version (1 beats 0).
--
-- `full_match` is computed from `match` (MATERIALIZED: the projector's inserts leave it out, so
-- they do not change); the table is then rebuilt with it as the version, as in 009. Rerunnable.

ALTER TABLE {db}.verified_contracts
  ADD COLUMN IF NOT EXISTS full_match UInt8 MATERIALIZED match = 'full'
  COMMENT '1 for a full match: the version, a full row replaces a partial one';
REBUILD TABLE {db}.verified_contracts
ENGINE = ReplacingMergeTree(full_match) ORDER BY address;
