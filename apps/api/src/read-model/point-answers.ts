import { gunzipSync } from "node:zlib";
import type { StoreState } from "../db.ts";
import { gzipNow } from "../http/gzip.ts";
import { jsonOf } from "../http/json-text.ts";
import { txHash } from "../http/params.ts";
import { blockText } from "../records/block.ts";
import { targets } from "../records/decode.ts";
import type { RecordCache } from "../records/record-cache.ts";
import type { RecordFollower } from "../records/record-follower.ts";
import { txKey } from "../records/store-reads.ts";
import type { Proposers } from "./proposers.ts";
import type { ImmediateAnswer } from "./read-model.ts";

/** Made at once for a route's path parameters in a state, or undefined (the route answers). */
type PointAnswer = (params: Record<string, string>, st: StoreState) => ImmediateAnswer | undefined;

/** The forms the record cache is keyed by: a hash of 64 hex digits, a height without leading 0. */
const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const HEIGHT = /^[1-9]\d{0,14}$/;

/**
 * The answers to `GET /api/1.0/txs/{hash}` and `/blocks/{height}` (matched by the router, with no
 * query string) made at once from the record cache, on the main thread without a query or an
 * effect, when everything they need is in memory: the record kept, the store's state fresh, and
 * for a block its proposers' names read for this height; for a transaction, either nothing
 * verified or the verified addresses read and none of them called (a call to one is decoded by
 * the route). The same JSON as the route's, and the same gzip (a transaction's is kept compressed
 * as the route compresses it); anything else is left to the route (undefined). Keyed by the
 * routes' paths as the router names them.
 */
export const pointAnswers = (
  cache: RecordCache,
  follower: RecordFollower,
  proposersNow: (st: StoreState) => Proposers | undefined,
): ReadonlyMap<string, PointAnswer> =>
  new Map<string, PointAnswer>([
    [
      "/api/1.0/txs/:hash",
      ({ hash = "" }, st) => {
        if (!TX_HASH.test(hash)) return undefined;
        const gz = cache.txGzipped(st.db, txKey(txHash(hash)), st.height);
        if (!gz) return undefined;
        if (st.verified > 0) {
          const verified = follower.verifiedOf(st);
          if (!verified || targets(gunzipSync(gz).toString("latin1")).some((a) => verified.has(a)))
            return undefined;
        }
        return {
          route: "/api/1.0/txs/:hash",
          length: gz.readUInt32LE(gz.length - 4), // gzip's trailer: the length it holds
          json: () => gunzipSync(gz),
          gzipped: () => gz,
        };
      },
    ],
    [
      "/api/1.0/blocks/:height",
      ({ height = "" }, st) => {
        if (!HEIGHT.test(height) || Number(height) > st.height) return undefined;
        const row = cache.block(st.db, Number(height));
        const proposers = row && proposersNow(st);
        if (!row || !proposers) return undefined;
        const json = jsonOf(blockText(row, proposers));
        return {
          route: "/api/1.0/blocks/:height",
          length: json.length,
          json: () => json,
          gzipped: () => gzipNow(json),
        };
      },
    ],
  ]);
