import type { Database, RootDatabase } from "lmdb";
import { Packr } from "msgpackr";
import {
  FAMILIES,
  type Family,
  type FamilyDef,
  heightAt,
  namesOf,
  positionOf,
  positionWidth,
  type Row,
} from "./list-families.ts";

/** Positions per entry of a key's list (one LMDB value: ~640-900 bytes, a few to a page). */
const PER_ENTRY = 64;

/** A page of a list: the block range, the order, and which of its records (skip, take). */
export interface ListPage {
  /** The lowest height (0: from the first). */
  readonly from: number;
  readonly upTo: number;
  readonly desc: boolean;
  readonly skip: number;
  readonly take: number;
}

const packr = new Packr({ useRecords: false });

/** Lowercase 0x hex of whole bytes: kept as its bytes (half the size), given back as text. */
const HEX = /^0x(?:[0-9a-f]{2})*$/;
const toBytes = (v: unknown): unknown =>
  typeof v === "string" && HEX.test(v)
    ? Buffer.from(v.slice(2), "hex")
    : Array.isArray(v)
      ? v.map(toBytes)
      : v;
// (msgpackr gives bytes as Buffers of the value read)
const toText = (v: unknown): unknown =>
  Buffer.isBuffer(v) ? `0x${v.toString("hex")}` : Array.isArray(v) ? v.map(toText) : v;

/** A block's hash as the store keeps it: lowercase 0x, 32 bytes. */
const isHash = (v: unknown): v is string => typeof v === "string" && /^0x[0-9a-f]{64}$/.test(v);

/**
 * A row's values in the family's order, hex as bytes, msgpack-encoded (rows hold no bytes). The
 * block's hash is kept once per height (ListCut's `blockHashes`): in the row, `true` stands for
 * it; `inline`: kept in the row (a row read from the store, packed to be written as kept ones are).
 */
export const packRow = (f: FamilyDef, row: Row, inline = false) =>
  packr.pack(
    namesOf(f).map((n) =>
      !inline && n === f.blockHash && isHash(row[n]) ? true : toBytes(row[n]),
    ),
  );
/** A row as packRow kept it, with its block's hash (0x hex) where `true` stands for it. */
export const unpackRow = (f: FamilyDef, b: Buffer, blockHash: string): Row => {
  const values = packr.unpack(b) as unknown[];
  const names = namesOf(f);
  const row: Row = {};
  for (let i = 0; i < names.length; i++) {
    const v = values[i];
    row[names[i]!] = v === true && names[i] === f.blockHash ? blockHash : toText(v);
  }
  return row;
};

/** A key's list: its number and how many positions it holds. */
const entry = (b: Buffer | undefined) =>
  b ? { id: b.readUInt32BE(0), count: b.readUInt32BE(4) } : undefined;
/** Two numbers as 8 bytes: a key's entry (list number, count) and a chunk's key (list, chunk). */
const twoNumbers = (a: number, b: number) => {
  const buf = Buffer.allocUnsafe(8);
  buf.writeUInt32BE(a, 0);
  buf.writeUInt32BE(b, 4);
  return buf;
};

/**
 * Lists of the store's rows by index key, kept in the record cache's file (record-cache.ts writes
 * them with the records, in the same transaction): for each key of a family (list-families.ts) the
 * positions of its rows in list order, PER_ENTRY to an LMDB value, and each row once by position.
 * A page is then a few reads on the main thread: the block range found by binary search over the
 * key's positions (they rise with their rank), `skip` as arithmetic, the rows by position; no
 * query and no OFFSET scan (an Etherscan page of 100 cost the engine 28-54 ms of CPU). A key's
 * positions only grow at the end: blocks are kept in height order, once.
 */
export class ListCut {
  /** `<family code><key>` → the key's list number and count. */
  private readonly keys: Database<Buffer, string>;
  /** list number, chunk number → up to PER_ENTRY positions. */
  private readonly chunks: Database<Buffer, Buffer>;
  private readonly rows: Readonly<Record<Family, Database<Buffer, Buffer>>>;
  /** height → the EVM block's hash (its 32 bytes), once for every family's rows. */
  private readonly blockHashes: Database<Buffer, number>;

  constructor(private readonly env: RootDatabase<string, string>) {
    // LZ4 above 100 bytes (the file's own compression): an EVM row a third smaller, a log's a
    // fifth (1M-tx bench store), no slower to read.
    const bin = {
      encoding: "binary",
      keyEncoding: "binary",
      compression: { threshold: 100 },
    } as const;
    this.keys = env.openDB<Buffer, string>({
      name: "list_keys",
      encoding: "binary",
      compression: false,
    });
    this.chunks = env.openDB<Buffer, Buffer>({ name: "list_chunks", ...bin });
    this.blockHashes = env.openDB<Buffer, number>({
      name: "block_hashes",
      encoding: "binary",
      compression: false,
    });
    this.rows = {
      evm: env.openDB<Buffer, Buffer>({ name: "rows_evm", ...bin }),
      transfers: env.openDB<Buffer, Buffer>({ name: "rows_transfers", ...bin }),
      logs: env.openDB<Buffer, Buffer>({ name: "rows_logs", ...bin }),
    };
  }

  /** Empties every list (inside the caller's write transaction). */
  clearSync() {
    this.keys.clearSync();
    this.chunks.clearSync();
    this.blockHashes.clearSync();
    for (const db of Object.values(this.rows)) db.clearSync();
    this.env.putSync("list_ids", "0");
  }

  /**
   * Keeps rows (inside the caller's write transaction), each family's above every one kept: its
   * row by position (appended) and its position at the end of each of its keys' lists.
   */
  writeSync(family: Family, rows: readonly Row[]) {
    const f = FAMILIES[family];
    const added = new Map<string, Buffer[]>();
    let hashed = -1;
    for (const row of rows) {
      const pos = positionOf(f, row);
      const hash = row[f.blockHash];
      const h = Number(row.block_number);
      if (isHash(hash) && h !== hashed) {
        this.blockHashes.putSync(h, Buffer.from(hash.slice(2), "hex"));
        hashed = h;
      }
      const ok = this.rows[family].putSync(pos, packRow(f, row), { append: true }) as unknown;
      if (ok === false) throw new Error(`record cache: a ${family} row out of order`);
      for (const k of f.keys(row)) {
        const list = added.get(k);
        if (list) list.push(pos);
        else added.set(k, [pos]);
      }
    }
    let next = Number(this.env.get("list_ids") ?? 0);
    const width = positionWidth(f);
    for (const [k, positions] of added) {
      const name = f.code + k;
      const e = entry(this.keys.get(name)) ?? { id: next++, count: 0 };
      let n = Math.floor(e.count / PER_ENTRY);
      let chunk =
        e.count % PER_ENTRY === 0 ? Buffer.alloc(0) : this.chunks.get(twoNumbers(e.id, n))!;
      let rest = Buffer.concat([chunk, ...positions]);
      while (rest.length > 0) {
        chunk = rest.subarray(0, PER_ENTRY * width);
        this.chunks.putSync(twoNumbers(e.id, n), Buffer.from(chunk));
        rest = rest.subarray(chunk.length);
        n++;
      }
      this.keys.putSync(name, twoNumbers(e.id, e.count + positions.length));
    }
    this.env.putSync("list_ids", String(next));
  }

  /**
   * A page of `key`'s list of `family` (no rows for a key never listed); undefined for a key of
   * a kind the family does not list.
   */
  page(family: Family, key: string, q: ListPage): KeptPage | undefined {
    const f = FAMILIES[family];
    if (!f.listed.test(key)) return undefined;
    const e = entry(this.keys.get(f.code + key));
    if (!e || q.take <= 0) return EMPTY;
    const width = positionWidth(f);
    let memo: { n: number; chunk: Buffer } | undefined;
    const at = (rank: number) => {
      const n = Math.floor(rank / PER_ENTRY);
      if (memo?.n !== n) memo = { n, chunk: this.chunks.get(twoNumbers(e.id, n))! };
      const o = (rank % PER_ENTRY) * width;
      return memo.chunk.subarray(o, o + width);
    };
    // the first rank whose height is above `h` (all of them: count)
    const above = (h: number) => {
      let lo = 0;
      let hi = e.count;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (heightAt(at(mid)) > h) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    const low = q.from > 0 ? above(q.from - 1) : 0;
    // up to the last height listed (a page of the whole list): no search
    const high = heightAt(at(e.count - 1)) <= q.upTo ? e.count : above(q.upTo);
    const [start, end] = q.desc
      ? [Math.max(low, high - q.skip - q.take), high - q.skip]
      : [low + q.skip, Math.min(high, low + q.skip + q.take)];
    const size = Math.max(0, end - start);
    let hashed = -1;
    let hash: Buffer | undefined;
    const rows = this.rows[family];
    const each = (visit: (packed: Buffer, blockHash: Buffer | undefined) => void) => {
      for (let i = 0; i < size; i++) {
        const pos = at(q.desc ? end - 1 - i : start + i);
        // the block's hash read first: a read may reuse the buffer of the row's value
        const h = heightAt(pos);
        if (h !== hashed) [hashed, hash] = [h, this.blockHashes.get(h)];
        // (the value LMDB gives without a copy, read before the next read: ~10% of a page)
        const b = rows.getBinaryFast(pos);
        if (b) visit(b, hash);
      }
    };
    return {
      size,
      each,
      rows: () => {
        const out: Row[] = [];
        each((b, hash) => out.push(unpackRow(f, b, `0x${hash?.toString("hex") ?? ""}`)));
        return out;
      },
    };
  }
}

/** A page of a list as kept: its rows read when asked, in page order. */
export interface KeptPage {
  /** How many rows the page holds. */
  readonly size: number;
  /**
   * Each row as packRow kept it, with the hash of its EVM block (`true` in the row stands for
   * it); a row's bytes are LMDB's own, valid during the call only.
   */
  readonly each: (visit: (packed: Buffer, blockHash: Buffer | undefined) => void) => void;
  /** The rows decoded. */
  readonly rows: () => Row[];
}

const EMPTY: KeptPage = { size: 0, each: () => {}, rows: () => [] };
