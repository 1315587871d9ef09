import type { Exit } from "effect";
import { LRUCache } from "lru-cache";
import type { StoreState } from "../db.ts";
import type { ApiError } from "../http/errors.ts";
import { gzip } from "../http/gzip.ts";

/** A kept answer: the route that made it and its JSON (or the failure, which is not kept). */
export interface KeptAnswer {
  readonly route: string;
  readonly answer: Promise<Buffer | Exit.Exit<unknown, ApiError>>;
  /** The JSON, once made. */
  json?: Buffer;
  /** The JSON gzip-compressed, made when a client that accepts it first asks. */
  gzipped?: Promise<Buffer | undefined>;
  /** The same, once made. */
  gz?: Buffer;
}

/** Answers kept at most, and their bytes at most. */
const MAX_ANSWERS = 20_000;
const MAX_BYTES = 64 * 1024 * 1024;
/**
 * Keys remembered as asked once, at most (then forgotten together, and counted afresh): an answer
 * asked again after ~10,000 other new ones is not kept. A crawler's second pass over a long list
 * (each page asked once per pass, passes 20,000 pages apart) kept every page of it, a fifth of
 * the cache, each answer promoted to the old generation and collected there: on the 1M-tx store,
 * 10-record pages asked once at 50 clients ran p99 130-270 ms in the pass that kept them, 50-75 in
 * the others, and 52-76 in every pass once passes that far apart were not kept.
 */
const MAX_SEEN = 10_000;

/** A key's 32-bit FNV-1a hash: what the cache remembers of a key asked once. */
const hashOf = (key: string) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
};

/**
 * Answers as a pure function of (table set, projected height, URL): kept, serialised, up to 64 MB,
 * in the `lru-cache` package (measured against the hand-written LRU it replaced, 20,000 entries,
 * one run: the same key read again and again 10 against 14 M reads/s, keys at random 4.4 against
 * 1.6, new keys set 1.7 against 1.1; a hot answer costs ~30 µs). Hot answers are keyed by the
 * projected height (a new height makes new keys), immutable ones (a projected block, a tx) by the
 * table set alone. A verification changes answers (decoded calls and logs) without a new height,
 * and a validator's new description the blocks it proposed: both are in the key.
 *
 * An answer is kept from the second time its key is asked ("cache on second hit"): the first time
 * only the key's hash is remembered. Pages asked once (a crawler walking a list, a client paging
 * past the window) would otherwise fill the cache with answers never read again, evicting hot
 * ones, and keep every answer alive long enough to be copied by the garbage collector: on the
 * 1M-tx store, 10-record pages asked once at 50 clients ran 619 req/s with every answer kept,
 * 1,211-1,500 with none.
 */
export class AnswerCache {
  // Each answer in a box of its own: setting a new box is how lru-cache takes a new size (setting
  // the same value again keeps the old one), without deleting the key.
  private readonly lru = new LRUCache<string, { readonly a: KeptAnswer }>({
    max: MAX_ANSWERS,
    maxSize: MAX_BYTES,
  });
  /** Answers being made, by key: shared by the requests that ask them meanwhile. */
  private readonly making = new Map<string, KeptAnswer>();
  /** Hashes of keys asked once lately (see the class's note). */
  private readonly seen = new Set<number>();
  /** Reads that found their answer, since the cache was made. */
  hits = 0;
  readonly maxEntries = MAX_ANSWERS;
  readonly maxWeight = MAX_BYTES;

  /** Entries held. */
  get size(): number {
    return this.lru.size;
  }

  /** Bytes held. */
  get weight(): number {
    return this.lru.calculatedSize;
  }

  keyOf(st: StoreState, immutable: boolean, url: string): string {
    return `${st.db}:v${st.verified}:p${st.proposers}:${immutable ? "" : st.height}:${url}`;
  }

  /** The answer under `key` (kept, or being made), counted as a read and made the most recent. */
  get(key: string): KeptAnswer | undefined {
    const hit = this.lru.get(key)?.a ?? this.making.get(key);
    if (hit) this.hits++;
    return hit;
  }

  /** Forgets `answer` (a failure), unless another one has been set under its key meanwhile. */
  forget(key: string, answer: KeptAnswer): void {
    if (this.making.get(key) === answer) this.making.delete(key);
    if (this.lru.peek(key)?.a === answer) this.lru.delete(key);
  }

  /** The answer kept for a URL in state `st`, hot or immutable (not counted as a read). */
  keptFor(st: StoreState, url: string): { key: string; hit: KeptAnswer } | undefined {
    for (const immutable of [false, true]) {
      const key = this.keyOf(st, immutable, url);
      const hit = this.lru.peek(key)?.a;
      if (hit) return { key, hit };
    }
    return undefined;
  }

  /**
   * A new answer for `key`, made by `make` (its JSON or its failure): concurrent requests for the
   * key share it, a failure too (answered to each of them, not made again, and not kept). Kept
   * once made if the key was asked before (see the class's note).
   */
  made(key: string, route: string, make: () => Promise<Buffer | Exit.Exit<unknown, ApiError>>) {
    const answer: KeptAnswer = {
      route,
      answer: make().then(
        (out) => {
          const ours = this.making.get(key) === answer;
          if (ours) this.making.delete(key);
          if (!(out instanceof Uint8Array)) return out;
          answer.json = out;
          if (ours && this.askedBefore(key))
            this.lru.set(key, { a: answer }, { size: Math.max(1, out.length) });
          return out;
        },
        (e: unknown) => {
          // (a fault, not a typed failure: the next request makes it again)
          if (this.making.get(key) === answer) this.making.delete(key);
          throw e;
        },
      ),
    };
    this.making.set(key, answer);
    return answer;
  }

  /**
   * The kept JSON gzip-compressed: once, for the first client that accepts gzip, and kept with it
   * (a compression that failed is not: that answer goes out as it is, and the next one tries).
   */
  gzippedOnce(key: string, hit: KeptAnswer, json: Buffer): Promise<Buffer | undefined> {
    hit.gzipped ??= gzip(json).then(
      (gz) => {
        this.weigh(key, hit, json.length + gz.length);
        hit.gz = gz;
        return gz;
      },
      () => {
        hit.gzipped = undefined;
        return undefined;
      },
    );
    return hit.gzipped;
  }

  /** Whether `key` was asked before (and then forgotten as such); else remembered as asked. */
  private askedBefore(key: string): boolean {
    const h = hashOf(key);
    if (this.seen.delete(h)) return true;
    if (this.seen.size >= MAX_SEEN) this.seen.clear();
    this.seen.add(h);
    return false;
  }

  /** Sets the size of `answer` once known, if its key still holds it. */
  private weigh(key: string, answer: KeptAnswer, bytes: number) {
    if (this.lru.peek(key)?.a === answer)
      this.lru.set(key, { a: answer }, { size: Math.max(1, bytes) });
  }
}
