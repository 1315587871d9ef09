import { isUtf8 } from "node:buffer";

/**
 * JSON text written as UTF-8 bytes into one growing buffer: literal pieces, JavaScript values
 * (through JSON.stringify) and string bytes copied from elsewhere (MessagePack, see
 * Packed.json, or the API's kept rows), escaped exactly as JSON.stringify escapes them. The
 * projector builds records with it and hands their bytes to the store as they are; the API writes
 * answers with it (apps/api records/row-json.ts). Every method returns the writer, to chain.
 */
export class JsonOut {
  private buf: Buffer;
  private n = 0;

  constructor(private readonly first = 64 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(first);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.n;
  }

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  byte(b: number): this {
    if (this.n >= this.buf.length) this.room(1);
    this.buf[this.n++] = b;
    return this;
  }

  /** Bytes as they are (a key, punctuation): short ones a byte at a time (TypedArray.set costs more below ~64 bytes). */
  raw(b: Uint8Array): this {
    const len = b.length;
    this.room(len);
    if (len > 64) this.buf.set(b, this.n);
    else {
      const o = this.buf;
      let at = this.n;
      for (let i = 0; i < len; i++) o[at++] = b[i]!;
    }
    this.n += len;
    return this;
  }

  /** Text that is only ASCII (keys, punctuation, numbers): copied code unit by code unit. */
  ascii(s: string): this {
    this.room(s.length);
    const b = this.buf;
    let at = this.n;
    for (let i = 0; i < s.length; i++) b[at++] = s.charCodeAt(i);
    this.n = at;
    return this;
  }

  /** Any text, as UTF-8 (JSON text already, such as JSON.stringify's output). */
  text(s: string): this {
    const len = s.length;
    this.room(len * 3);
    if (len <= 256) {
      // short text is mostly ASCII: copied here, without a call into the runtime
      const b = this.buf;
      let at = this.n;
      for (let i = 0; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) {
          this.n += b.write(s, this.n, "utf8");
          return this;
        }
        b[at++] = c;
      }
      this.n = at;
      return this;
    }
    this.n += this.buf.write(s, this.n, "utf8");
    return this;
  }

  /** A JavaScript value as JSON.stringify writes it (`undefined`, which it leaves out, as null). */
  value(v: unknown): this {
    if (typeof v === "number" && Number.isSafeInteger(v) && !Object.is(v, -0))
      return this.ascii(String(v));
    return this.text(JSON.stringify(v) ?? "null");
  }

  /** A JavaScript string as a JSON string (as JSON.stringify writes it). */
  quoted(s: string): this {
    const len = s.length;
    this.room(len + 2);
    const b = this.buf;
    let at = this.n;
    b[at++] = 0x22;
    for (let i = 0; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return this.text(JSON.stringify(s));
      b[at++] = c;
    }
    b[at++] = 0x22;
    this.n = at;
    return this;
  }

  /**
   * Bytes `src[start, end)` as a JSON string of 0x and lowercase hex: up to 32 bytes by a loop
   * here, longer through Buffer's own (native) hex.
   */
  hex(src: Buffer, start: number, end: number): this {
    this.room(2 * (end - start) + 4);
    const b = this.buf;
    let at = this.n;
    b[at++] = 0x22;
    b[at++] = 0x30;
    b[at++] = 0x78;
    if (end - start > 32) at += b.write(src.toString("hex", start, end), at, "latin1");
    else
      for (let i = start; i < end; i++) {
        const v = src[i]!;
        b[at++] = HEX_DIGITS[v >> 4]!;
        b[at++] = HEX_DIGITS[v & 15]!;
      }
    b[at++] = 0x22;
    this.n = at;
    return this;
  }

  /** Strings as a JSON array (see quoted). */
  strings(list: readonly string[]): this {
    this.byte(0x5b);
    for (let i = 0; i < list.length; i++) {
      if (i > 0) this.byte(0x2c);
      this.quoted(list[i]!);
    }
    return this.byte(0x5d);
  }

  /**
   * A string whose UTF-8 bytes are `src[s, s + len)`, quoted and escaped as JSON.stringify does.
   * Bytes that are not UTF-8 are read as Buffer#toString reads them (U+FFFD for each bad
   * sequence), so the text written is always UTF-8.
   */
  string(src: Uint8Array, s: number, len: number): this {
    if (this.n + len * 6 + 2 > this.buf.length) this.room(len * 6 + 2);
    const o = this.buf;
    let at = this.n;
    o[at++] = 0x22;
    let high = 0;
    for (let i = s, e = s + len; i < e; i++) {
      const c = src[i]!;
      high |= c;
      if (ESCAPED[c] === 0) o[at++] = c;
      else at = escapeByte(o, at, c);
    }
    if (high >= 0x80 && !isUtf8(src.subarray(s, s + len)))
      return this.text(
        JSON.stringify(Buffer.from(src.buffer, src.byteOffset + s, len).toString("utf8")),
      );
    o[at++] = 0x22;
    this.n = at;
    return this;
  }

  /** What another writer holds, copied. */
  append(other: JsonOut): this {
    return this.raw(other.buf.subarray(0, other.n));
  }

  /** Empties the writer to use it again (its bytes are overwritten). */
  clear(): this {
    this.n = 0;
    return this;
  }

  /**
   * Everything written, copied, and the writer emptied to write again (a writer used for answer
   * after answer: its buffer back to its first size once grown past 1 MiB).
   */
  copy(): Buffer {
    const out = Buffer.allocUnsafe(this.n);
    this.buf.copy(out, 0, 0, this.n);
    this.n = 0;
    if (this.buf.length > 1 << 20) this.buf = Buffer.allocUnsafeSlow(this.first);
    return out;
  }

  /** Everything written, and the writer emptied (the bytes are the caller's; it starts a small buffer). */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.n);
    this.buf = Buffer.allocUnsafeSlow(1024);
    this.n = 0;
    return out;
  }
}

const HEX = "0123456789abcdef";
const HEX_DIGITS = new TextEncoder().encode(HEX);
/** 1 for the bytes JSON escapes: control characters, the quote and the backslash. */
const ESCAPED = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) ESCAPED[c] = 1;
ESCAPED[0x22] = 1;
ESCAPED[0x5c] = 1;
const SHORT: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };

/** The escape of byte c (a quote, a backslash or a control character) at o[at]; returns the next position. */
const escapeByte = (o: Uint8Array, at: number, c: number): number => {
  o[at] = 0x5c;
  if (c === 0x22 || c === 0x5c) {
    o[at + 1] = c;
    return at + 2;
  }
  const short = SHORT[c];
  if (short !== undefined) {
    o[at + 1] = short;
    return at + 2;
  }
  o[at + 1] = 0x75; // \u00XX
  o[at + 2] = 0x30;
  o[at + 3] = 0x30;
  o[at + 4] = HEX.charCodeAt(c >> 4);
  o[at + 5] = HEX.charCodeAt(c & 15);
  return at + 6;
};
