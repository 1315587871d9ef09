-- Validators' commission not yet withdrawn (the SPEC Validator record's `unclaimed`), kept as
-- readings and additions. Readings come from the node (RawBlock `state.commission`) and always
-- cover every validator that exists at their height: on the ingester's first height, every 1,000
-- heights, and at every height where commission was withdrawn (the `withdraw_commission` event
-- does not say by whom, so every validator is read) or a validator was created. Additions are the `commission` events of
-- each block (distribution's allocation, in `finalize_block_events`). So a validator's commission
-- at height P is its amount in the last reading at or below P (none if it did not exist then)
-- plus the commission allocated to it after that reading, up to P. Amounts are the node's decimal
-- coins in units of 10^-18 (LegacyDec has 18 decimals), exact. Both tables are keyed by height
-- first: that sum reads only the heights after the last reading.
--
-- A set created before this migration fills it from the blocks projected after it; it is exact
-- again from the ingester's next reading (at most 1,000 heights on), or at once after a re-index
-- of a log whose records carry the readings.

-- The commission allocated to a validator at a height: one row per denom.
CREATE TABLE IF NOT EXISTS {db}.validator_commission (
  operator_address String,
  height UInt64,
  denom String,
  amount UInt256 COMMENT 'in 10^-18 of the denom'
) ENGINE = ReplacingMergeTree ORDER BY (height, operator_address, denom);

-- A validator's whole commission not yet withdrawn, read from the node at a height: one row per
-- denom, or one row with denom '' and amount 0 when it had none. Same columns, engine and key.
CREATE TABLE IF NOT EXISTS {db}.validator_commission_readings AS {db}.validator_commission;
