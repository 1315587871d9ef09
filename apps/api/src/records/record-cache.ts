import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Database, open, type RootDatabase } from "lmdb";
import type { StoredBlock } from "./block.ts";

/** A block range's records as read from the store, to be kept (see RecordCache.put). */
export interface RecordChunk {
  /** The heights the chunk covers, all of them (a height without a row has none). */
  readonly from: number;
  readonly to: number;
  /**
   * Each transaction in the order of (height, idx): its place, its keys (`h:<TXHASH>`, `e:<0xhash>`:
   * point-reads' txKey) and its record.
   */
  readonly txs: readonly (readonly [
    height: number,
    idx: number,
    keys: readonly string[],
    record: string,
  ])[];
  readonly blocks: readonly (readonly [height: number, proposerCons: string, record: string])[];
}

/** The layout of a set's file; another one is emptied and filled again. */
const FORMAT = "3";

/**
 * A transaction's place as a key that sorts as (height, idx) does: 6 bytes of height, 4 of index.
 * Records are written in that order, so each goes at the end of its table (LMDB's append: full
 * pages) where keyed by hash they would land at random (half-full pages: twice the size).
 */
const place = (height: number, idx: number) => {
  const b = Buffer.allocUnsafe(10);
  b.writeUIntBE(height, 0, 6);
  b.writeUInt32BE(idx, 6);
  return b;
};

interface SetFile {
  readonly set: string;
  readonly env: RootDatabase<string, string>;
  /** place → record, gzip-compressed */
  readonly txs: Database<Buffer, Buffer>;
  /** hash key → place */
  readonly hashes: Database<Buffer, string>;
  readonly blocks: Database<Buffer, number>;
  filled: number;
}

/**
 * Transactions by hash and blocks by height, as the store holds them, in a memory-mapped
 * key-value file (LMDB) beside the API: a point lookup is a synchronous read of a few
 * microseconds on the main thread instead of a query to the engine (~3 ms of its CPU per batch).
 * A cache of the store, never the source: it holds a table set's records up to a height (`filled`)
 * that is at most the set's projected height, it is filled from the store (record-follower.ts),
 * and a key it lacks is read from the store as before. Records never change once projected (a
 * replay writes the same ones), so a kept one is always right; the file is kept per table set,
 * with a stamp of the set (its last migration and first block): a set re-created under the same
 * name (a store deleted and built again) does not match, and its file is emptied. Another set's
 * file is deleted when the API moves to a new set.
 */
export class RecordCache {
  private file: SetFile | undefined;

  constructor(private readonly dir: string) {}

  /** The table set whose records are kept now (undefined: none yet). */
  get set(): string | undefined {
    return this.file?.set;
  }

  /**
   * Keeps `set`'s records from now on: its file, opened as it was left if its stamp is `stamp`,
   * else emptied; other sets' files are closed and deleted. Returns the height filled up to.
   */
  use(set: string, stamp: string): number {
    if (this.file?.set === set && this.file.env.get("stamp") === stamp) return this.file.filled;
    this.closeFile();
    mkdirSync(this.dir, { recursive: true });
    for (const other of readdirSync(this.dir))
      if (other !== set) rmSync(join(this.dir, other), { recursive: true, force: true });
    const path = join(this.dir, set);
    let env = openFile(path);
    if (env.get("stamp") !== stamp || env.get("format") !== FORMAT) {
      env.close();
      rmSync(path, { recursive: true, force: true });
      env = openFile(path);
      env.putSync("format", FORMAT);
      env.putSync("stamp", stamp);
    }
    this.file = {
      set,
      env,
      txs: env.openDB<Buffer, Buffer>({
        name: "txs",
        encoding: "binary",
        keyEncoding: "binary",
        compression: false, // gzip already
      }),
      hashes: env.openDB<Buffer, string>({
        name: "hashes",
        encoding: "binary",
        compression: false,
      }),
      blocks: env.openDB<Buffer, number>({ name: "blocks", encoding: "binary" }),
      filled: Number(env.get("filled") ?? 0),
    };
    return this.file.filled;
  }

  /** The height `set`'s records are kept up to (0: none, or another set is kept). */
  filled(set: string): number {
    return this.file?.set === set ? this.file.filled : 0;
  }

  /**
   * A transaction's record by key (`h:<TXHASH>` or `e:<0xhash>`), if kept: its JSON
   * gzip-compressed (as http/gzip.ts compresses an answer, so sent as it is to clients that take
   * gzip, and decompressed for the others: ~4 times faster than compressing).
   */
  txGzipped(set: string, key: string): Buffer | undefined {
    const f = this.file;
    if (f?.set !== set) return undefined;
    const at = f.hashes.get(key);
    return at && f.txs.get(at);
  }

  /** A block as stored (its record and proposer's consensus address), if kept. */
  block(set: string, height: number): StoredBlock | undefined {
    const f = this.file;
    if (f?.set !== set || height > f.filled) return undefined;
    const v = f.blocks.get(height);
    if (!v) return undefined;
    const tab = v.indexOf(9);
    return { proposer_cons: v.toString("latin1", 0, tab), record: v.toString("utf8", tab + 1) };
  }

  /**
   * Keeps a chunk of `set`'s records and moves `filled` to its end, in one write: a crash keeps
   * both or neither. A chunk starts just above `filled` (a gap would be taken as kept), or
   * anywhere in an empty file (the set's first block).
   */
  async put(set: string, chunk: RecordChunk): Promise<void> {
    const f = this.file;
    if (f?.set !== set) throw new Error(`record cache: ${set} is not the set kept (${f?.set})`);
    if (f.filled > 0 && chunk.from > f.filled + 1)
      throw new Error(`record cache: chunk from ${chunk.from} leaves a gap above ${f.filled}`);
    await f.env.transaction(() => {
      for (const [h, idx, keys, record] of chunk.txs) {
        const at = place(h, idx);
        f.txs.putSync(at, gzipSync(record), { append: true });
        for (const k of keys) f.hashes.putSync(k, at);
      }
      for (const [h, proposer, record] of chunk.blocks)
        f.blocks.putSync(h, Buffer.from(`${proposer}\t${record}`), { append: true });
      f.env.putSync("filled", String(chunk.to));
    });
    f.filled = Math.max(f.filled, chunk.to);
  }

  close(): void {
    this.closeFile();
  }

  private closeFile() {
    this.file?.env.close();
    this.file = undefined;
  }
}

/**
 * Blocks' values of more than ~1 KB LZ4-compressed (transactions are gzip-compressed); pages of 16
 * KiB, so that a record of up to ~8 KB sits in a leaf page with others (with 4 KiB pages one of
 * more than ~2 KB takes pages of its own: a quarter more disk).
 */
const openFile = (path: string) =>
  open<string, string>({ path, compression: true, maxDbs: 4, encoding: "string", pageSize: 16384 });
