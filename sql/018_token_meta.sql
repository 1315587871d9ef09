-- What a token says of itself (name, symbol, decimals, its standard) as last read. `contracts`
-- keeps what it said at creation; a token behind a proxy says nothing until a later transaction
-- initializes it, and an upgrade may change it. The ingester reads them again at every block
-- that touches the token (a transfer, an EIP-1967 `Upgraded`, an `Initialized`), so the latest
-- height wins here. A set migrated from an earlier version has rows for the tokens touched since;
-- read `contracts` for the others.

CREATE TABLE IF NOT EXISTS {db}.token_meta (
  contract String COMMENT 'lowercase 0x',
  height UInt64,
  token_type String COMMENT 'CFC-20, CFC-721, ERC-1155 or empty',
  name String,
  symbol String,
  decimals Nullable(UInt8)
) ENGINE = ReplacingMergeTree(height) ORDER BY contract;
