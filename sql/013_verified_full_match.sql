-- A full match replaces a partial one. A partial match (the code equal, the metadata hash not:
-- other comments, license line, file names or settings that compile to the same code) proves the
-- code, not what the submitter said around it. Anyone may submit one, so it must not keep the
-- owner's full match out: the API takes a full match for an address that has a partial one, and
-- records it in the log under its own key (`verify.<address>.full`). This table then keeps the full
-- row whatever the order the two records are projected in: `full_match` is its version (1 beats 0).
--
-- Rebuilt with the same columns plus `full_match`, computed from `match` (MATERIALIZED: the
-- projector's inserts leave it out, so they do not change). Rerunnable.

DROP TABLE IF EXISTS {db}.verified_contracts_rebuilt;
CREATE TABLE {db}.verified_contracts_rebuilt (
  address String COMMENT 'lowercase 0x',
  contract_name String,
  file_name String COMMENT 'the source unit holding the contract',
  compiler_version String COMMENT 'v<version>+commit.<hash>',
  code_format String COMMENT 'solidity-single-file or solidity-standard-json-input',
  source_code String COMMENT 'as submitted: the file, or the standard-JSON input',
  optimization UInt8,
  runs UInt32,
  evm_version String,
  constructor_arguments String COMMENT 'hex without 0x',
  libraries String COMMENT 'JSON array of {name, address}',
  abi String COMMENT 'JSON array',
  match String COMMENT 'full or partial',
  license String COMMENT 'SPDX identifier the source declares',
  verified_at DateTime64(3, 'UTC'),
  height UInt64 COMMENT 'last block in the log when it was recorded',
  full_match UInt8 MATERIALIZED match = 'full' COMMENT '1 for a full match: the version, a full row replaces a partial one'
) ENGINE = ReplacingMergeTree(full_match) ORDER BY address;
INSERT INTO {db}.verified_contracts_rebuilt SELECT * FROM {db}.verified_contracts;
EXCHANGE TABLES {db}.verified_contracts AND {db}.verified_contracts_rebuilt;
DROP TABLE {db}.verified_contracts_rebuilt;
