/**
 * JSON values as MessagePack, for the log's records (codec.ts; read back by packed.ts). Standard
 * MessagePack only (maps with string keys, arrays, strings, numbers, booleans, nil), so any
 * MessagePack library reads the log. With JSON's meaning: what JSON.stringify would leave out
 * (undefined, functions, symbols as properties) is left out, and null where JSON.stringify writes
 * null (those in arrays, NaN, ±Infinity); `toJSON` is honoured. Integers up to 2^53 are integers,
 * other numbers float64. A lone surrogate (which UTF-8 cannot hold, and which no node's JSON
 * holds) becomes U+FFFD. Keys go in the object's order, which is JSON.stringify's.
 */

const utf8 = new TextEncoder();

/** A value as JSON.stringify sees it (after toJSON); undefined where JSON has none. */
const asJson = (v: unknown, key: string): unknown => {
  const x =
    v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function"
      ? (v as { toJSON(k: string): unknown }).toJSON(key)
      : v;
  return typeof x === "function" || typeof x === "symbol" ? undefined : x;
};

class Writer {
  buf = new Uint8Array(64 * 1024);
  view = new DataView(this.buf.buffer);
  at = 0;

  room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  head(small: number, smallMax: number, n: number, t16: number, t32: number): void {
    this.room(5);
    if (n <= smallMax) this.buf[this.at++] = small | n;
    else if (n <= 0xffff) {
      this.buf[this.at] = t16;
      this.view.setUint16(this.at + 1, n);
      this.at += 3;
    } else {
      this.buf[this.at] = t32;
      this.view.setUint32(this.at + 1, n);
      this.at += 5;
    }
  }

  string(s: string): void {
    // at most 3 bytes per UTF-16 unit: the bytes go after the longest head that bound needs,
    // then move left when the actual length takes a shorter one
    const max = s.length * 3;
    const h = max < 32 ? 1 : max < 0x100 ? 2 : max < 0x10000 ? 3 : 5;
    this.room(h + max);
    const n = utf8.encodeInto(s, this.buf.subarray(this.at + h)).written;
    const need = n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
    if (need < h) this.buf.copyWithin(this.at + need, this.at + h, this.at + h + n);
    const [b, a] = [this.buf, this.at];
    if (need === 1) b[a] = 0xa0 | n;
    else if (need === 2) {
      b[a] = 0xd9;
      b[a + 1] = n;
    } else if (need === 3) {
      b[a] = 0xda;
      this.view.setUint16(a + 1, n);
    } else {
      b[a] = 0xdb;
      this.view.setUint32(a + 1, n);
    }
    this.at += need + n;
  }

  number(v: number): void {
    this.room(9);
    if (!Number.isFinite(v)) {
      this.buf[this.at++] = 0xc0;
    } else if (Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff) {
      if (v < 0x80) this.buf[this.at++] = v;
      else if (v <= 0xff) {
        this.buf[this.at++] = 0xcc;
        this.buf[this.at++] = v;
      } else if (v <= 0xffff) {
        this.buf[this.at] = 0xcd;
        this.view.setUint16(this.at + 1, v);
        this.at += 3;
      } else {
        this.buf[this.at] = 0xce;
        this.view.setUint32(this.at + 1, v);
        this.at += 5;
      }
    } else if (Number.isInteger(v) && v < 0 && v >= -0x8000_0000) {
      if (v >= -32) this.buf[this.at++] = v & 0xff;
      else {
        this.buf[this.at] = 0xd2;
        this.view.setInt32(this.at + 1, v);
        this.at += 5;
      }
    } else {
      this.buf[this.at] = 0xcb;
      this.view.setFloat64(this.at + 1, v);
      this.at += 9;
    }
  }

  value(v: unknown): void {
    switch (typeof v) {
      case "string":
        this.string(v);
        return;
      case "number":
        this.number(v);
        return;
      case "boolean":
        this.room(1);
        this.buf[this.at++] = v ? 0xc3 : 0xc2;
        return;
      case "bigint":
        throw new TypeError("a BigInt has no JSON value");
      case "object":
        if (v === null) {
          this.room(1);
          this.buf[this.at++] = 0xc0;
        } else if (Array.isArray(v)) {
          this.head(0x90, 15, v.length, 0xdc, 0xdd);
          for (let i = 0; i < v.length; i++) this.value(asJson(v[i], String(i)) ?? null);
        } else this.object(v as Record<string, unknown>);
        return;
      default:
        throw new TypeError(`${typeof v} has no JSON value`);
    }
  }

  private object(o: Record<string, unknown>): void {
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      const v = asJson(o[k], k);
      if (v === undefined) continue;
      keys.push(k);
      values.push(v);
    }
    this.head(0x80, 15, keys.length, 0xde, 0xdf);
    for (let i = 0; i < keys.length; i++) {
      this.string(keys[i]!);
      this.value(values[i]);
    }
  }
}

/** `value` as MessagePack, with JSON's meaning (see above). */
export const pack = (value: unknown): Uint8Array => {
  const w = new Writer();
  const v = asJson(value, "");
  if (v === undefined) throw new TypeError(`${typeof value} has no JSON value`);
  w.value(v);
  return w.buf.slice(0, w.at);
};
