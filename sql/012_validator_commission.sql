-- Validators' commission not yet withdrawn (the SPEC Validator record's `unclaimed`), kept as
-- readings and additions: a validator's commission at height P is its last reading at or below P
-- plus the commission allocated to it at each height after that reading, up to P.
--
-- Readings come from the node (RawBlock `state.commission`): on the ingester's first height,
-- every 1,000 heights, and at every height where commission was withdrawn (the
-- `withdraw_commission` event does not say by whom, so every validator is read). Additions are the
-- `commission` events of each block (distribution's allocation, in `finalize_block_events`).
-- Amounts are the node's decimal coins in units of 10^-18 (LegacyDec has 18 decimals), exact.
--
-- A set created before this migration fills it from the blocks projected after it; a validator
-- is exact again from its next reading (at most 1,000 heights on), or at once after a re-index of
-- a log whose records carry the readings.

-- The commission allocated to a validator at a height: one row per denom.
CREATE TABLE IF NOT EXISTS {db}.validator_commission (
  operator_address String,
  height UInt64,
  denom String,
  amount UInt256 COMMENT 'in 10^-18 of the denom'
) ENGINE = ReplacingMergeTree ORDER BY (operator_address, height, denom);

-- A validator's whole commission not yet withdrawn, read from the node at a height: one row per
-- denom, or one row with denom '' and amount 0 when it had none. Same columns, engine and key.
CREATE TABLE IF NOT EXISTS {db}.validator_commission_readings AS {db}.validator_commission;
