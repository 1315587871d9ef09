-- Index entries of one token standard: key = '<standard>:a:<address>' (an account that sent or
-- received) | '<standard>:c:<contract>', the standard as token_transfers.token_type gives it
-- (CFC-20, CFC-721, ERC-1155). Etherscan's tokentx, tokennfttx and token1155tx list one standard:
-- with these keys their page is cut from the index alone, as txlist's is, instead of joining all
-- of an account's transfers with token_transfers to keep one standard (docs/benchmarks.md,
-- etherscan). Transfers of no standard (token_type '') get none.

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.transfer_standard_lookup_mv TO {db}.transfer_lookup AS
SELECT key, block_number, log_index, sub
FROM {db}.token_transfers
ARRAY JOIN if(token_type = '', [], arrayDistinct([
  concat(token_type, ':a:', from_address),
  concat(token_type, ':a:', to_address),
  concat(token_type, ':c:', contract)
])) AS key;

INSERT INTO {db}.transfer_lookup
SELECT key, block_number, log_index, sub
FROM {db}.token_transfers FINAL
ARRAY JOIN if(token_type = '', [], arrayDistinct([
  concat(token_type, ':a:', from_address),
  concat(token_type, ':a:', to_address),
  concat(token_type, ':c:', contract)
])) AS key;
