-- Blocks each validator signed and missed, by UTC day of block time, for the `?validator=` charts
-- of `/stats/*` (docs/analytics.md): a chart reads a row per day of one validator instead of a
-- row per height joined to `block_stats` at each request.
--
-- Settled by the projector like `day_stats` (021): once a block of a later day is written, before
-- the batch's progress row, from `validator_signatures` and `block_stats` read with FINAL (a
-- height's signature once), so a replayed batch writes the same rows again (they collapse; the
-- version is the day's last height). The API reads a validator's settled days and adds up the
-- heights after them from their rows, up to the projected height.
--
-- An existing set is filled at the first day a block closes after this migration (every height
-- before it at once); until then the API adds up every height's rows, as before.

CREATE TABLE IF NOT EXISTS {db}.validator_day_stats
(
  cons_address String COMMENT 'consensus address, uppercase hex (as in commit signatures)',
  day Date,
  max_height UInt64 COMMENT 'the day''s last height',
  signed UInt64 COMMENT 'blocks of the day whose commit carries the validator''s signature',
  missed UInt64 COMMENT 'blocks of the day whose commit names the validator without its signature'
)
ENGINE = ReplacingMergeTree(max_height)
ORDER BY (cons_address, day);
