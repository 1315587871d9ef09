import { Fatal } from "@explorer/service/errors";
import { Unpackr } from "msgpackr";
import type { JsonOut } from "./json-out.ts";
import type { Json } from "./types.ts";

/**
 * A reader of MessagePack (the log's records: pack.ts) that walks the bytes without building
 * objects: a projection reads the few fields it needs and copies whole node answers into its JSON
 * output (json-out.ts) without ever parsing them into JavaScript. That matters: a block's
 * `txs_results` and `txs` are over half of its bytes, and building their objects (and collecting
 * them again) cost more than everything else the projector does with them. Whole values are
 * decoded by msgpackr where objects are wanted.
 */

/** A position in the bytes: where one value starts. */
export type Pos = number;

/** Told of string values as Packed.json writes them: where each is, and its length in bytes. */
export interface StringHook {
  string(at: Pos, length: number): void;
}

const utf8 = new TextEncoder();

const objects = new Unpackr({ useRecords: false, mapsAsObjects: true, int64AsType: "number" });

/** A key of a map, as the bytes a reader compares (see Packed.field). */
export interface Key {
  readonly text: string;
  readonly bytes: Uint8Array;
}
export const key = (text: string): Key => ({ text, bytes: utf8.encode(text) });

export class PackedFormatError extends Fatal {
  override readonly name = "PackedFormatError";
}

/**
 * Reads MessagePack bytes in place. Positions are byte offsets of values; a map's or array's
 * entries follow its head, one value after the other (`first`, then `end` of each). Reading past
 * the bytes, or a type this format does not use, is a PackedFormatError.
 */
export class Packed {
  private readonly view: DataView;
  /** The bytes as a Buffer, for its UTF-8 decoding. */
  private readonly node: Buffer;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.node = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private fail(p: Pos, what: string): never {
    throw new PackedFormatError(`${what} at byte ${p} of ${this.bytes.length}`);
  }

  private u8(p: Pos): number {
    const b = this.bytes[p];
    return b === undefined ? this.fail(p, "value past the end") : b;
  }

  /** The position just after the value at p. */
  end(p: Pos): Pos {
    const t = this.u8(p);
    if (t < 0x80 || t >= 0xe0) return p + 1;
    if (t < 0xa0) {
      let q = p + 1;
      for (let n = t < 0x90 ? (t & 15) * 2 : t & 15; n > 0; n--) q = this.end(q);
      return q;
    }
    if (t < 0xc0) return this.bounded(p, p + 1 + (t & 31));
    switch (t) {
      case 0xc0:
      case 0xc2:
      case 0xc3:
        return p + 1;
      case 0xc4:
      case 0xd9:
        return this.bounded(p, p + 2 + this.u8(p + 1));
      case 0xc5:
      case 0xda:
        return this.bounded(p, p + 3 + this.u16(p + 1));
      case 0xc6:
      case 0xdb:
        return this.bounded(p, p + 5 + this.u32(p + 1));
      case 0xcc:
      case 0xd0:
        return p + 2;
      case 0xcd:
      case 0xd1:
        return p + 3;
      case 0xca:
      case 0xce:
      case 0xd2:
        return p + 5;
      case 0xcb:
      case 0xcf:
      case 0xd3:
        return p + 9;
      case 0xdc:
      case 0xdd:
      case 0xde:
      case 0xdf: {
        let q = this.first(p);
        for (let n = this.count(p) * (t >= 0xde ? 2 : 1); n > 0; n--) q = this.end(q);
        return q;
      }
    }
    return this.fail(p, `MessagePack type 0x${t.toString(16)}, which records do not use`);
  }

  /**
   * Shows `hook` every string value inside the value at p (a string itself, a map's values, an
   * array's items; not a map's keys); returns the position after it. As fast as `end`.
   */
  strings(p: Pos, hook: StringHook): Pos {
    const b = this.bytes;
    const t = b[p] ?? this.fail(p, "value past the end");
    if (t < 0x80 || t >= 0xe0) return p + 1;
    if (t < 0x90) {
      let q = p + 1;
      for (let n = t & 15; n > 0; n--) q = this.strings(this.end(q), hook);
      return q;
    }
    if (t < 0xa0) {
      let q = p + 1;
      for (let n = t & 15; n > 0; n--) q = this.strings(q, hook);
      return q;
    }
    if (t < 0xc0 || (t >= 0xd9 && t <= 0xdb)) {
      const s = this.text(p);
      const n = this.len;
      hook.string(p, n);
      return s + n;
    }
    if (t >= 0xdc && t <= 0xdf) {
      let q = this.first(p);
      const map = t >= 0xde;
      for (let n = this.count(p); n > 0; n--) q = this.strings(map ? this.end(q) : q, hook);
      return q;
    }
    return this.end(p);
  }

  private bounded(p: Pos, e: Pos): Pos {
    return e <= this.bytes.length ? e : this.fail(p, "value past the end");
  }

  private u16(p: Pos): number {
    return p + 2 <= this.bytes.length ? this.view.getUint16(p) : this.fail(p, "value past the end");
  }

  private u32(p: Pos): number {
    return p + 4 <= this.bytes.length ? this.view.getUint32(p) : this.fail(p, "value past the end");
  }

  isMap(p: Pos): boolean {
    const t = this.bytes[p] ?? 0;
    return (t & 0xf0) === 0x80 || t === 0xde || t === 0xdf;
  }

  isArray(p: Pos): boolean {
    const t = this.bytes[p] ?? 0;
    return (t & 0xf0) === 0x90 || t === 0xdc || t === 0xdd;
  }

  isNil(p: Pos): boolean {
    return this.bytes[p] === 0xc0;
  }

  /** Entries of a map (pairs) or items of an array; 0 for anything else. */
  count(p: Pos): number {
    const t = this.bytes[p] ?? 0;
    if ((t & 0xe0) === 0x80) return t & 15;
    if (t === 0xdc || t === 0xde) return this.u16(p + 1);
    if (t === 0xdd || t === 0xdf) return this.u32(p + 1);
    return 0;
  }

  /** The first entry of a map or array (its first key, or first item). */
  first(p: Pos): Pos {
    const t = this.bytes[p] ?? 0;
    return (t & 0xe0) === 0x80 ? p + 1 : t === 0xdc || t === 0xde ? p + 3 : p + 5;
  }

  /**
   * Length in bytes of the string `text` last found (a scratch value, so that hot loops read a
   * string without allocating).
   */
  len = 0;

  /** Where the bytes of the string at p start (its length then in `len`), or -1 for any other value. */
  text(p: Pos): number {
    const t = this.bytes[p] ?? 0;
    let s: number;
    if ((t & 0xe0) === 0xa0) {
      s = p + 1;
      this.len = t & 31;
    } else if (t === 0xd9) {
      s = p + 2;
      this.len = this.u8(p + 1);
    } else if (t === 0xda) {
      s = p + 3;
      this.len = this.u16(p + 1);
    } else if (t === 0xdb) {
      s = p + 5;
      this.len = this.u32(p + 1);
    } else return -1;
    this.bounded(p, s + this.len);
    return s;
  }

  /** Byte length of a string value (-1 if not a string). */
  stringLength(p: Pos): number {
    return this.text(p) >= 0 ? this.len : -1;
  }

  /** Whether the value at p is the string `k`. */
  is(p: Pos, k: Key): boolean {
    const s = this.text(p);
    const kb = k.bytes;
    if (s < 0 || this.len !== kb.length) return false;
    const b = this.bytes;
    for (let i = 0; i < kb.length; i++) if (b[s + i] !== kb[i]) return false;
    return true;
  }

  /** Whether the string at p starts with the bytes of `k`. */
  startsWith(p: Pos, k: Key): boolean {
    const s = this.text(p);
    const kb = k.bytes;
    if (s < 0 || this.len < kb.length) return false;
    const b = this.bytes;
    for (let i = 0; i < kb.length; i++) if (b[s + i] !== kb[i]) return false;
    return true;
  }

  /** The value of `k` in the map at p (its position), or -1 when p is no map or has no such key. */
  field(p: Pos, k: Key): Pos {
    if (!this.isMap(p)) return -1;
    let q = this.first(p);
    for (let n = this.count(p); n > 0; n--) {
      if (this.is(q, k)) return this.end(q);
      q = this.end(this.end(q));
    }
    return -1;
  }

  /** The positions of an array's items ([] for anything else) and the position after it. */
  itemsAndEnd(p: Pos): readonly [Pos[], Pos] {
    if (!this.isArray(p)) return [[], this.end(p)];
    const out: Pos[] = [];
    let q = this.first(p);
    for (let n = this.count(p); n > 0; n--) {
      out.push(q);
      q = this.end(q);
    }
    return [out, q];
  }

  /** A string value's bytes as Latin-1 text (exact for ASCII); undefined for any other value. */
  latin1(p: Pos): string | undefined {
    const s = this.text(p);
    return s < 0 ? undefined : this.node.toString("latin1", s, s + this.len);
  }

  /** A string value as text; undefined for any other value. */
  string(p: Pos): string | undefined {
    const s = this.text(p);
    if (s < 0) return undefined;
    const n = this.len;
    const b = this.bytes;
    if (n <= 24) {
      // short ASCII (keys, hex, addresses, numbers as text): no call into the runtime
      let out = "";
      for (let i = s; i < s + n; i++) {
        const c = b[i]!;
        if (c >= 0x80) return this.node.toString("utf8", s, s + n);
        out += String.fromCharCode(c);
      }
      return out;
    }
    return this.node.toString("utf8", s, s + n);
  }

  /**
   * The value at p written to `out` as JSON text, exactly as JSON.stringify writes the value
   * `value(p)` gives (keys in their order here, which is the order the encoder met them in);
   * returns the position after it. `strings` is shown every string value on the way (not keys).
   */
  json(p: Pos, out: JsonOut, strings?: StringHook): Pos {
    const b = this.bytes;
    const t = b[p] ?? this.fail(p, "value past the end");
    if ((t & 0xe0) === 0xa0 || (t >= 0xd9 && t <= 0xdb)) {
      const s = this.text(p);
      const n = this.len;
      out.string(b, s, n);
      if (strings) strings.string(p, n);
      return s + n;
    }
    let n: number;
    let q: Pos;
    let map: boolean;
    if (t >= 0x80 && t < 0xa0) {
      [n, q, map] = [t & 15, p + 1, t < 0x90];
    } else if (t >= 0xdc && t <= 0xdf) {
      const wide = t === 0xdd || t === 0xdf;
      [n, q, map] = [wide ? this.u32(p + 1) : this.u16(p + 1), p + (wide ? 5 : 3), t >= 0xde];
    } else if (t === 0xc0 || t === 0xc2 || t === 0xc3) {
      out.ascii(t === 0xc0 ? "null" : t === 0xc2 ? "false" : "true");
      return p + 1;
    } else {
      const [v, end] = this.read(p);
      if (typeof v !== "number") this.fail(p, "a value JSON has no form for");
      out.ascii(JSON.stringify(v));
      return end;
    }
    out.byte(map ? 0x7b : 0x5b);
    for (let i = 0; i < n; i++) {
      if (i > 0) out.byte(0x2c);
      if (map) {
        const k = this.text(q);
        if (k < 0) this.fail(q, "a map key that is not a string");
        out.string(b, k, this.len);
        out.byte(0x3a);
        q = k + this.len;
      }
      q = this.json(q, out, strings);
    }
    out.byte(map ? 0x7d : 0x5d);
    return q;
  }

  /** The value at p as JavaScript (objects, arrays, strings…): what JSON.parse gives for its JSON. */
  value(p: Pos): Json {
    return p < 0 ? null : this.read(p)[0];
  }

  /** The value at p as JavaScript, and the position after it. */
  read(p: Pos): readonly [Json, Pos] {
    // `end` first walks the value: it refuses MessagePack extensions, which msgpackr would turn
    // into values JSON has none of (Date, Set…), and bounds msgpackr's native string extraction to
    // this value. On the bench's dense block (476 KB) the walk costs ~0.3 ms and the `__proto__`
    // search ~0.25 beside msgpackr's 1.7; one pass with msgpackr finding the end itself
    // (unpackMultiple) measured 2.13 against 2.26 ms in all, without the refusal.
    const end = this.end(p);
    // msgpackr renames a key `__proto__` (as a guard for objects it builds), where JSON.parse
    // keeps it: a value that has one (NFT metadata is anyone's JSON) is decoded here instead
    if (this.node.subarray(p, end).indexOf(PROTO) >= 0) return this.exact(p);
    try {
      return [objects.unpack(this.bytes, { start: p, end }) as Json, end];
    } catch (e) {
      return this.fail(p, `MessagePack that cannot be read (${(e as Error).message})`);
    }
  }

  /** The value at p as JavaScript, read here value by value: every key an own property, as JSON.parse makes them. */
  private exact(p: Pos): [Json, Pos] {
    const s = this.text(p);
    if (s >= 0) return [this.node.toString("utf8", s, s + this.len), s + this.len];
    if (this.isMap(p) || this.isArray(p)) {
      const map = this.isMap(p);
      const out: Json[] | { [k: string]: Json } = map ? {} : [];
      let q = this.first(p);
      for (let n = this.count(p); n > 0; n--) {
        let k: string | undefined;
        if (map) {
          k = this.string(q);
          if (k === undefined) this.fail(q, "a map key that is not a string");
          q = this.end(q);
        }
        const [v, next] = this.exact(q);
        if (k === undefined) (out as Json[]).push(v);
        else
          Object.defineProperty(out, k, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        q = next;
      }
      return [out, q];
    }
    const end = this.end(p);
    return [objects.unpack(this.bytes, { start: p, end }) as Json, end];
  }
}

/** MessagePack of the string `__proto__`. */
const PROTO = Buffer.from([0xa9, ...Buffer.from("__proto__")]);

/** A whole MessagePack value as JavaScript (see Packed.value). */
export const unpack = (bytes: Uint8Array): Json => new Packed(bytes).value(0);
