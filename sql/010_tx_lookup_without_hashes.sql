-- `tx_lookup` without the hash keys (`h:<TXHASH>`, `e:<0xevmhash>`): since 008_tx_hash.sql a lookup
-- by hash reads `tx_hash`, and nothing reads those keys here. They were 2 of the ~7.4 entries per
-- transaction (the rest: `a:` per involved address, `m:` per message type), so the table and the
-- work of filling and merging it shrink by about a quarter.
--
-- The view is created again without them, and the ones already written are deleted (a mutation
-- that rewrites the table's parts once; waited for). Rerunnable: nothing is left to delete then.

DROP VIEW IF EXISTS {db}.tx_lookup_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.tx_lookup_mv TO {db}.tx_lookup AS
SELECT key, height, idx
FROM {db}.txs
ARRAY JOIN arrayConcat(
  arrayMap(x -> concat('a:', x), addresses),
  arrayMap(x -> concat('m:', x), message_types)
) AS key;

ALTER TABLE {db}.tx_lookup DELETE WHERE startsWith(key, 'h:') OR startsWith(key, 'e:')
SETTINGS mutations_sync = 2;
