-- Accounts and validators. Rows are versions: ReplacingMergeTree(height) keeps the latest per key;
-- read with FINAL (or argMax) so that an unmerged older version never shows.

-- The state of an account as of the last block that touched it.
CREATE TABLE IF NOT EXISTS {db}.addresses (
  address String COMMENT 'bech32',
  evm String COMMENT '0x, checksummed',
  height UInt64,
  time DateTime64(3, 'UTC'),
  coins String COMMENT 'JSON array of Coin',
  delegations String COMMENT 'JSON, items {delegation, balance}',
  redelegations String,
  unbonding_delegations String,
  rewards String COMMENT 'JSON {rewards, total} or empty',
  account_number String,
  sequence String
) ENGINE = ReplacingMergeTree(height) ORDER BY address;

-- Balance of each native coin per account, for the rich list (0 once the coin is gone).
CREATE TABLE IF NOT EXISTS {db}.address_balances (
  denom String,
  address String,
  amount UInt256,
  height UInt64
) ENGINE = ReplacingMergeTree(height) ORDER BY (denom, address);

-- First and last height at which each account was touched.
CREATE TABLE IF NOT EXISTS {db}.address_seen (
  address String,
  first_height SimpleAggregateFunction(min, UInt64),
  last_height SimpleAggregateFunction(max, UInt64)
) ENGINE = AggregatingMergeTree ORDER BY address;

-- Validators as the staking module describes them (`record` is its JSON), versioned by height.
CREATE TABLE IF NOT EXISTS {db}.validators (
  operator_address String,
  cons_address String COMMENT 'consensus address, uppercase hex (as in commit signatures)',
  account String COMMENT 'the operator account, bech32',
  height UInt64,
  jailed UInt8,
  status String,
  tokens UInt256,
  record String
) ENGINE = ReplacingMergeTree(height) ORDER BY operator_address;

-- Commit signatures: did validator X sign block H (from block H+1's last_commit).
CREATE TABLE IF NOT EXISTS {db}.validator_signatures (
  cons_address String,
  height UInt64,
  signed UInt8
) ENGINE = ReplacingMergeTree ORDER BY (cons_address, height);
