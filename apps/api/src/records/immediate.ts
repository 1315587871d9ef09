import { gunzipSync } from "node:zlib";
import type { DbShape } from "../db.ts";
import { gzipNow } from "../http/gzip.ts";
import { jsonOf } from "../http/json-text.ts";
import { txHash } from "../http/params.ts";
import { blockText, peekProposers } from "./block.ts";
import { targets } from "./decode.ts";
import { txKey } from "./point-reads.ts";
import type { RecordCache } from "./record-cache.ts";
import type { RecordFollower } from "./record-follower.ts";

/** An answer made at once: its route (as the metrics name it), and its JSON's length and bytes. */
export interface ImmediateAnswer {
  readonly route: string;
  readonly length: number;
  readonly json: () => Buffer;
  /** The JSON gzip-compressed (undefined: too large to be compressed on the main thread). */
  readonly gzipped: () => Buffer | undefined;
}

const TX = /^\/api\/1\.0\/txs\/(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64})$/;
const BLOCK = /^\/api\/1\.0\/blocks\/([1-9]\d{0,14})$/;

/**
 * The answer to `GET /api/1.0/txs/{hash}` or `/blocks/{height}` (nothing else: no query string, no
 * other path) made at once from the record cache, on the main thread without a query or an
 * effect, when everything it needs is in memory: the record kept, the store's state fresh, and
 * for a block its proposers' names read for this height; for a transaction, either nothing
 * verified or the verified addresses read and none of them called (a call to one is decoded by
 * the route). The same JSON as the route's, and the same gzip (a transaction's is kept compressed
 * as the route compresses it); anything else is left to the route (undefined).
 */
export const immediateAnswers =
  (db: DbShape, cache: RecordCache, follower: RecordFollower) =>
  (url: string): ImmediateAnswer | undefined => {
    const st = db.peek();
    if (!st) return undefined;
    const tx = TX.exec(url)?.[1];
    if (tx !== undefined) {
      const gz = cache.txGzipped(st.db, txKey(txHash(tx)), st.height); // the form checked above: no throw
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
    }
    const height = BLOCK.exec(url)?.[1];
    if (height === undefined || Number(height) > st.height) return undefined;
    const row = cache.block(st.db, Number(height));
    const proposers = row && peekProposers(db, st);
    if (!row || !proposers) return undefined;
    const json = Buffer.from(jsonOf(blockText(row, proposers)));
    return {
      route: "/api/1.0/blocks/:height",
      length: json.length,
      json: () => json,
      gzipped: () => gzipNow(json),
    };
  };
