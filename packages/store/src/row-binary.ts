import { Fatal } from "@explorer/service/errors";
/**
 * Rows encoded in ClickHouse's RowBinary format: each row's columns in table order, numbers
 * little-endian, strings as a varint length and their UTF-8 bytes. The engine copies such rows
 * instead of parsing text: for the projector's large `record` strings that is most of an insert's
 * cost (docs/benchmarks.md, "Projector throughput"). Pure: column types in, bytes out.
 */

export type ColumnType =
  | { readonly kind: "uint"; readonly bytes: 1 | 2 | 4 | 8 | 16 | 32 }
  | { readonly kind: "string" }
  | { readonly kind: "datetime64"; readonly scale: number }
  | { readonly kind: "array"; readonly of: ColumnType }
  | { readonly kind: "nullable"; readonly of: ColumnType };

export interface Column {
  readonly name: string;
  /** The type as ClickHouse names it. */
  readonly typeName: string;
  readonly type: ColumnType;
}

/** Columns of each table of a table set, in table order (plain data: it crosses to worker threads). */
export type TableColumns = Readonly<Record<string, readonly Column[]>>;

export class UnsupportedColumnType extends Fatal {
  override readonly name = "UnsupportedColumnType";
}

const UINT_BYTES = { UInt8: 1, UInt16: 2, UInt32: 4, UInt64: 8, UInt128: 16, UInt256: 32 } as const;

/** A ClickHouse type as RowBinary writes it; throws UnsupportedColumnType for any other type. */
export const parseColumnType = (t: string): ColumnType => {
  const type = t.trim();
  if (type in UINT_BYTES)
    return { kind: "uint", bytes: UINT_BYTES[type as keyof typeof UINT_BYTES] };
  if (type === "String") return { kind: "string" };
  // RowBinary writes a Date as its days since 1970, a UInt16
  if (type === "Date") return { kind: "uint", bytes: 2 };
  const dt = /^DateTime64\((\d)(?:,\s*'UTC')?\)$/.exec(type);
  if (dt) return { kind: "datetime64", scale: Number(dt[1]) };
  const inner = /^(Array|Nullable|LowCardinality)\((.*)\)$/.exec(type);
  if (inner?.[1] === "Array") return { kind: "array", of: parseColumnType(inner[2]!) };
  if (inner?.[1] === "Nullable") return { kind: "nullable", of: parseColumnType(inner[2]!) };
  // LowCardinality(T) and SimpleAggregateFunction(f, T) are written as T.
  if (inner?.[1] === "LowCardinality") return parseColumnType(inner[2]!);
  const agg = /^SimpleAggregateFunction\(\w+,\s*(.*)\)$/.exec(type);
  if (agg) return parseColumnType(agg[1]!);
  throw new UnsupportedColumnType(`RowBinary: column type ${t} is not supported`);
};

const varintSize = (n: number): number =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x20_0000 ? 3 : n < 0x1000_0000 ? 4 : 5;

/** A growing byte buffer with the writes RowBinary needs. */
class Out {
  // Never from Node's shared pool: the bytes' whole ArrayBuffer may be transferred to another thread.
  buf = Buffer.allocUnsafeSlow(64 * 1024);
  at = 0;

  room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  varint(v: number): void {
    this.room(10);
    this.putVarint(v);
  }

  /** The varint at the current position, in room already made. */
  private putVarint(v: number): void {
    let x = v;
    while (x >= 0x80) {
      this.buf[this.at++] = (x & 0x7f) | 0x80;
      x = Math.floor(x / 128);
    }
    this.buf[this.at++] = x;
  }

  string(s: string): void {
    const len = s.length;
    if (len < 0x80) {
      // short text, mostly ASCII (hashes, addresses, names): copied here, no call into the runtime
      this.room(1 + len * 3);
      const b = this.buf;
      let at = this.at + 1;
      let i = 0;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        b[at++] = c;
      }
      if (i === len) {
        b[this.at] = len;
        this.at = at;
        return;
      }
    }
    // s.length <= its UTF-8 length <= 3 × s.length: when both bounds need as many varint bytes,
    // the length's place is known before writing, and the string is written in one pass.
    const k = varintSize(s.length);
    this.room(k + s.length * 3);
    const start = this.at;
    if (varintSize(s.length * 3) === k) {
      const n = this.buf.write(s, start + k, "utf8");
      this.putVarint(n);
      this.at += n;
      return;
    }
    const n = Buffer.byteLength(s);
    this.varint(n);
    this.room(n);
    this.at += this.buf.write(s, this.at, "utf8");
  }

  /** Bytes of a value already encoded (UTF-8 text), with their length first. */
  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** `bytes` little-endian bytes of a non-negative integer. */
  uint(v: bigint | number, bytes: number): void {
    this.room(bytes);
    if (typeof v === "number" && bytes <= 4) {
      this.buf.writeUIntLE(v, this.at, bytes);
    } else if (typeof v === "number") {
      this.buf.writeUInt32LE(v % 0x1_0000_0000, this.at);
      this.buf.writeUInt32LE(Math.floor(v / 0x1_0000_0000), this.at + 4);
      if (bytes > 8) this.buf.fill(0, this.at + 8, this.at + bytes);
    } else {
      let x = BigInt(v);
      for (let i = 0; i < bytes; i += 8) {
        this.buf.writeBigUInt64LE(x & 0xffff_ffff_ffff_ffffn, this.at + i);
        x >>= 64n;
      }
    }
    this.at += bytes;
  }

  take(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }
}

const MAX = { 1: 0xff, 2: 0xffff, 4: 0xffff_ffff } as const;
const DIGITS = /^\d+$/;

/** A UInt value as a number (when exact) or a bigint; throws for anything that is not one. */
const uintValue = (v: unknown, bytes: number, column: string): number | bigint => {
  if (v === undefined || v === null || v === false) return 0;
  if (v === true) return 1;
  // Decimal text of up to 15 digits is below 2^53: read as a number, exact, without BigInt's
  // allocations (the projector's UInt64 and most UInt256 values come as text: 0.63 against 0.53 ms
  // of encoding a block of the project bench's log)
  const n = typeof v === "string" && v.length <= 15 && DIGITS.test(v) ? Number(v) : v;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0) {
    if (bytes <= 4 && n > MAX[bytes as 1 | 2 | 4])
      throw new RangeError(`${column}: ${v} does not fit UInt${bytes * 8}`);
    return n;
  }
  if ((typeof v === "string" && DIGITS.test(v)) || typeof v === "bigint") {
    const b = BigInt(v);
    if (b >= 0n && b < 1n << BigInt(bytes * 8)) return bytes <= 6 ? Number(b) : b;
  }
  throw new RangeError(`${column}: ${String(v)} is not a UInt${bytes * 8}`);
};

const DATE_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d{1,9})?)Z?$/;

/** The last time read and its milliseconds: a block's rows all carry the block's time. */
let lastTime: { text: string; ms: number } | undefined;

/** Ticks of 10^-scale s since the epoch, from 'YYYY-MM-DD hh:mm:ss[.fff]' (UTC) or ISO text. */
const dateTimeValue = (v: unknown, scale: number, column: string): number => {
  if (typeof v === "string" && v === lastTime?.text)
    return Math.round(lastTime.ms * 10 ** (scale - 3));
  const ms = dateTimeMs(v, column);
  if (typeof v === "string") lastTime = { text: v, ms };
  return Math.round(ms * 10 ** (scale - 3));
};

const dateTimeMs = (v: unknown, column: string): number => {
  if (v === undefined || v === null || v === "") return 0;
  const m = typeof v === "string" ? DATE_TIME.exec(v) : null;
  const ms = m ? Date.parse(`${m[1]}T${m[2]}Z`) : Number.NaN;
  // Date.parse rolls a day or an hour that does not exist over (2024-02-30 is March 1st): refused.
  // (Checked only where it can happen: the projector writes many times.)
  const exists =
    m !== null &&
    !Number.isNaN(ms) &&
    ((Number(m[1]!.slice(8)) <= 28 && Number(m[2]!.slice(0, 2)) < 24) ||
      new Date(ms).toISOString().slice(0, 19) === `${m[1]}T${m[2]!.slice(0, 8)}`);
  if (!exists || ms < 0) throw new RangeError(`${column}: ${String(v)} is not a UTC time`);
  return ms;
};

/** A number or a boolean as text; an object would be stored as "[object Object]": refused. (UTF-8 bytes are written as they are.) */
const scalar = (v: unknown, column: string): string => {
  if (typeof v === "object" || typeof v === "function" || typeof v === "symbol")
    throw new TypeError(`${column}: a ${typeof v} is not a String value (serialize it first)`);
  return String(v);
};

const write = (out: Out, type: ColumnType, v: unknown, column: string): void => {
  switch (type.kind) {
    case "uint":
      out.uint(uintValue(v, type.bytes, column), type.bytes);
      return;
    case "string":
      if (v instanceof Uint8Array) out.bytes(v);
      else
        out.string(
          v === undefined || v === null ? "" : typeof v === "string" ? v : scalar(v, column),
        );
      return;
    case "datetime64":
      out.uint(dateTimeValue(v, type.scale, column), 8);
      return;
    case "array": {
      const list = v === undefined || v === null ? [] : v;
      if (!Array.isArray(list)) throw new TypeError(`${column}: not an array`);
      out.varint(list.length);
      for (const x of list) write(out, type.of, x, column);
      return;
    }
    case "nullable":
      if (v === undefined || v === null) {
        out.room(1);
        out.buf[out.at++] = 1;
        return;
      }
      out.room(1);
      out.buf[out.at++] = 0;
      write(out, type.of, v, column);
  }
};

/**
 * RowBinary rows appended to one buffer, table after table: one allocation (and one transfer to
 * another thread) for all of them. A missing or null value is the column's default (0, '', [], or
 * NULL where Nullable), as ClickHouse reads a missing JSON field; fields of no column are ignored.
 * Throws for a value the column cannot hold.
 */
export class RowBinaryWriter {
  private readonly out = new Out();

  /** Bytes written so far. */
  get length(): number {
    return this.out.at;
  }

  write(columns: readonly Column[], rows: readonly object[]): void {
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      for (const c of columns) write(this.out, c.type, r[c.name], c.name);
    }
  }

  /** Everything written (later views of it stay valid until the writer is reset). */
  finish(): Uint8Array {
    return this.out.take();
  }

  /** Starts over in the same memory (what `finish` gave is overwritten by the next writes). */
  reset(): void {
    this.out.at = 0;
  }
}

/** Rows (objects keyed by column name) as RowBinary for these columns (see RowBinaryWriter). */
export const encodeRowBinary = (
  columns: readonly Column[],
  rows: readonly object[],
): Uint8Array => {
  const w = new RowBinaryWriter();
  w.write(columns, rows);
  return w.finish();
};
