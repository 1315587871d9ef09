-- Verified contracts: one row per address, from the log's verification records (a replay restores them).

CREATE TABLE IF NOT EXISTS {db}.verified_contracts (
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
  height UInt64 COMMENT 'last block in the log when it was recorded'
) ENGINE = ReplacingMergeTree ORDER BY address;
