-- `tx_stats` written by the projector with the batch's other tables, as `block_stats` is, instead
-- of by a view over each insert into `txs`: the view parsed every record's JSON three times (its
-- body's messages, its fee's denoms, its fee's amounts), about a third of the engine's CPU for a
-- batch's transactions. The projector reads the same values from the node's tx as it writes the
-- record from it (packages/projections/src/tx-stats.ts); the rows are the ones the view made.
-- A batch's rows are in place before its progress row either way.
DROP VIEW IF EXISTS {db}.tx_stats_mv;
