import { gunzipSync } from "node:zlib";
import { Effect } from "effect";
import type { DbShape } from "../db.ts";
import { RecordCache } from "../records/record-cache.ts";
import { followRecords } from "../records/record-follower.ts";
import { blockRows, found, lookup, txRows } from "../records/store-reads.ts";
import { txPositionsReader } from "../records/tx-positions.ts";
import { AnswerCache } from "./answers.ts";
import { perHeightReader } from "./per-height.ts";
import { pointAnswers } from "./point-answers.ts";
import { proposersReader } from "./proposers.ts";
import type { ReadModelShape } from "./read-model.ts";
import { verifiedInterfacesReader } from "./verified-interfaces.ts";

/**
 * The read model over a store: its answer cache, its tx positions, and, with `recordCacheDir`, the
 * records kept beside it (filled from the store from now on, in the background; see
 * records/record-follower.ts). Without one every point lookup reads the store.
 */
export const makeReadModel = (db: DbShape, recordCacheDir?: string): ReadModelShape => {
  const records = recordCacheDir ? new RecordCache(recordCacheDir) : undefined;
  const follower = records && followRecords(records, db);
  const proposers = proposersReader(db);
  const now = records && follower ? pointAnswers(records, follower, proposers.current) : new Map();
  return {
    answers: new AnswerCache(),
    proposers: proposers.read,
    proposersNow: proposers.current,
    perHeight: perHeightReader(db),
    verifiedInterfaces: verifiedInterfacesReader(db),
    txRecord: (key) =>
      Effect.flatMap(db.state, (st) => {
        const kept = records?.txGzipped(st.db, key, st.height);
        return kept ? Effect.succeed(gunzipSync(kept).toString()) : lookup(txRows(db).load(key));
      }),
    block: (h) =>
      Effect.flatMap(db.state, (st) => {
        const kept = records?.block(st.db, h);
        return kept ? Effect.succeed(kept) : found(blockRows(db).load(h), `block ${h}`);
      }),
    listPage: (family, key, q) =>
      Effect.map(db.state, (st) => {
        if (!records || q.upTo > st.height) return undefined;
        // the cache behind the projected height (it fills every second): fill now
        if (q.upTo > records.filled(st.db)) follower?.nudge();
        return records.listPage(st.db, family, key, q);
      }),
    txPositions: txPositionsReader(db),
    now: (route, params, st) => now.get(route)?.(params, st),
    answersNow: (route) => now.has(route),
    filledTo: (set, height) => follower?.filledTo(set, height) ?? Promise.resolve(),
    keepsRecords: records !== undefined,
    stop: async () => {
      await follower?.stop();
    },
  };
};
