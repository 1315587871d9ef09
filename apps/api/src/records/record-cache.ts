import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Database, open, type RootDatabase } from "lmdb";
import type { StoredBlock } from "./block.ts";
import { type KeptPage, ListCut, type ListPage } from "./list-cut.ts";
import type { Family, Row } from "./list-families.ts";

/** A block range's records as read from the store, to be kept (see RecordCache.put). */
export interface RecordChunk {
  /** The heights the chunk covers, all of them (a height without a row has none). */
  readonly from: number;
  readonly to: number;
  /**
   * Each transaction in the order of (height, idx): its place, its keys (`h:<TXHASH>`, `e:<0xhash>`:
   * point-reads' txKey) and its record gzip-compressed (as http/gzip.ts compresses an answer).
   */
  readonly txs: readonly (readonly [
    height: number,
    idx: number,
    keys: readonly string[],
    gzipped: Buffer,
  ])[];
  readonly blocks: readonly (readonly [height: number, proposerCons: string, record: string])[];
  /** The rows of the lists cut from the cache (list-cut.ts), each family's in list order. */
  readonly lists?: Partial<Record<Family, readonly Row[]>>;
}

/** The layout of a set's file; a file of another one is deleted and made again. */
const FORMAT = "7";

/** A set's file: named after the set (a database name), holding LMDB's data file. */
const SET_FILE = /^[A-Za-z_][A-Za-z0-9_]*$/;

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
const heightOf = (at: Buffer) => at.readUIntBE(0, 6);

/**
 * A hash key as kept: `h:<TXHASH>` (uppercase) or `e:0x<hash>` (lowercase) as its letter and the
 * hash's 32 bytes, half the text's size (any other key as its text).
 */
const hashKey = (key: string) => {
  const hex = /^h:[0-9A-F]{64}$/.test(key)
    ? key.slice(2)
    : /^e:0x[0-9a-f]{64}$/.test(key)
      ? key.slice(4)
      : undefined;
  return hex === undefined
    ? Buffer.from(key)
    : Buffer.concat([Buffer.from(key[0]!), Buffer.from(hex, "hex")]);
};

interface SetFile {
  readonly set: string;
  readonly stamp: string;
  readonly env: RootDatabase<string, string>;
  /** place → record, gzip-compressed */
  readonly txs: Database<Buffer, Buffer>;
  /** hash key → place */
  readonly hashes: Database<Buffer, Buffer>;
  readonly blocks: Database<Buffer, number>;
  readonly lists: ListCut;
}

/**
 * Transactions by hash and blocks by height, as the store holds them, in a memory-mapped
 * key-value file (LMDB) beside the API: a point lookup is a synchronous read of a few
 * microseconds on the main thread instead of a query to the engine (~3 ms of its CPU per batch).
 * A cache of the store, never the source: it holds a table set's records up to a height (`filled`,
 * read from the file: processes sharing it see one value) that was projected when they were read,
 * it is filled from the store (record-follower.ts), and a key it lacks is read from the store as
 * before. Records never change once projected (a replay writes the same ones), so a kept one is
 * right as long as the set is the same: the file is kept per table set, with a stamp of the set
 * (its database's UUID, its last migration): a set made again under the same name (a store
 * deleted and built again) or migrated since does not match, and the file is emptied. Lookups are
 * also bounded by the caller's projected height. Another set's file in the directory is deleted
 * when the API moves to a new set (only directories named like a set that hold an LMDB file).
 */
export class RecordCache {
  private file: SetFile | undefined;

  constructor(private readonly dir: string) {}

  /** The table set whose records are kept now (undefined: none yet). */
  get set(): string | undefined {
    return this.file?.set;
  }

  /**
   * Keeps `set`'s records from now on: its file, as it was left if its stamp is `stamp`, else
   * emptied; other sets' files are closed and deleted.
   */
  async use(set: string, stamp: string): Promise<void> {
    if (this.file?.set === set && this.file.stamp === stamp) return;
    if (this.file?.set !== set) {
      await this.close();
      mkdirSync(this.dir, { recursive: true });
      for (const other of readdirSync(this.dir))
        if (other !== set && SET_FILE.test(other) && existsSync(join(this.dir, other, "data.mdb")))
          rmSync(join(this.dir, other), { recursive: true, force: true });
      const path = join(this.dir, set);
      let env = openFile(path);
      const format = env.get("format");
      if (format !== undefined && format !== FORMAT) {
        await env.close(); // another layout (page size too): made again
        rmSync(path, { recursive: true, force: true });
        env = openFile(path);
      }
      this.file = setFile(set, stamp, env);
    } else this.file = { ...this.file, stamp };
    const f = this.file;
    // Emptied in one write (another process sharing the file sees it before or after).
    f.env.transactionSync(() => {
      if (f.env.get("stamp") === stamp && f.env.get("format") === FORMAT) return;
      f.txs.clearSync();
      f.hashes.clearSync();
      f.blocks.clearSync();
      f.lists.clearSync();
      f.env.putSync("format", FORMAT);
      f.env.putSync("stamp", stamp);
      f.env.putSync("filled", "0");
    });
  }

  /** The height `set`'s records are kept up to (0: none, or another set is kept). */
  filled(set: string): number {
    return this.file?.set === set ? Number(this.file.env.get("filled") ?? 0) : 0;
  }

  /**
   * A transaction's record by key (`h:<TXHASH>` or `e:<0xhash>`), if kept at a height up to
   * `upTo`: its JSON gzip-compressed (as http/gzip.ts compresses an answer, so sent as it is to
   * clients that take gzip, and decompressed for the others: ~4 times faster than compressing).
   */
  txGzipped(set: string, key: string, upTo: number): Buffer | undefined {
    const f = this.file;
    if (f?.set !== set) return undefined;
    const at = f.hashes.get(hashKey(key));
    return at && heightOf(at) <= upTo ? f.txs.get(at) : undefined;
  }

  /** A block as stored (its record and proposer's consensus address), if kept. */
  block(set: string, height: number): StoredBlock | undefined {
    const f = this.file;
    if (f?.set !== set || height > this.filled(set)) return undefined;
    const v = f.blocks.get(height);
    if (!v) return undefined;
    const tab = v.indexOf(9);
    return { proposer_cons: v.toString("latin1", 0, tab), record: v.toString("utf8", tab + 1) };
  }

  /**
   * A page of a list (list-cut.ts) if the records are kept up to its last height, `q.upTo`, which
   * the caller bounds by its projected height; else undefined (the store cuts it).
   */
  listPage(set: string, family: Family, key: string, q: ListPage): KeptPage | undefined {
    const f = this.file;
    if (f?.set !== set || q.upTo > this.filled(set)) return undefined;
    return f.lists.page(family, key, q);
  }

  /**
   * Keeps a chunk of `set`'s records and moves `filled` to its end, in one write: a crash keeps
   * both or neither. A chunk starts just above `filled` (a gap would be taken as kept), or
   * anywhere in an empty file (the set's first block); one another process sharing the file has
   * written meanwhile is skipped. False when it was not written.
   */
  put(set: string, chunk: RecordChunk): boolean {
    const f = this.file;
    if (f?.set !== set) throw new Error(`record cache: ${set} is not the set kept (${f?.set})`);
    return f.env.transactionSync(() => {
      const filled = Number(f.env.get("filled") ?? 0);
      if (chunk.to <= filled || chunk.from <= filled) return false; // written by another
      if (filled > 0 && chunk.from > filled + 1)
        throw new Error(`record cache: chunk from ${chunk.from} leaves a gap above ${filled}`);
      // (cannot happen: places rise chunk by chunk) else the write is undone, not half made;
      // lmdb's putSync answers whether it wrote (its types say void)
      const appended = (ok: unknown) => {
        if (ok === false) throw new Error(`record cache: a record of ${set} out of order`);
      };
      for (const [h, idx, keys, gzipped] of chunk.txs) {
        const at = place(h, idx);
        appended(f.txs.putSync(at, gzipped, { append: true }));
        for (const k of keys) f.hashes.putSync(hashKey(k), at);
      }
      for (const [h, proposer, record] of chunk.blocks)
        appended(f.blocks.putSync(h, Buffer.from(`${proposer}\t${record}`), { append: true }));
      for (const [family, rows] of Object.entries(chunk.lists ?? {}))
        f.lists.writeSync(family as Family, rows);
      f.env.putSync("filled", String(chunk.to));
      return true;
    });
  }

  async close(): Promise<void> {
    const f = this.file;
    this.file = undefined;
    await f?.env.close();
  }
}

const setFile = (set: string, stamp: string, env: RootDatabase<string, string>): SetFile => ({
  set,
  stamp,
  env,
  txs: env.openDB<Buffer, Buffer>({
    name: "txs",
    encoding: "binary",
    keyEncoding: "binary",
    compression: false, // gzip already
  }),
  hashes: env.openDB<Buffer, Buffer>({
    name: "hashes",
    encoding: "binary",
    keyEncoding: "binary",
    compression: false,
  }),
  // as it is: gzip-compressed a block of 72 transactions (8.8 KB) left its overflow page of 16 KB
  // for a third of that, but random /blocks/{height} answered 6,498 against 11,407 req/s
  blocks: env.openDB<Buffer, number>({ name: "blocks", encoding: "binary" }),
  lists: new ListCut(env),
});

/**
 * Blocks' values of more than ~1 KB LZ4-compressed (transactions are gzip-compressed); pages of 16
 * KiB, so that a record of up to ~8 KB sits in a leaf page with others (with 4 KiB pages one of
 * more than ~2 KB takes pages of its own: a quarter more disk).
 */
const openFile = (path: string) =>
  open<string, string>({
    path,
    compression: true,
    maxDbs: 12,
    encoding: "string",
    pageSize: 16384,
  });
