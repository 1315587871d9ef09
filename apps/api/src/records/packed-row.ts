/**
 * A row as list-cut.ts's packRow keeps it (a MessagePack array of strings, byte strings, numbers,
 * `true` and nil, byte strings' arrays), read in place: where each value lies in the row's bytes,
 * nothing decoded. An answer is then written from those bytes (row-json.ts) without a
 * string or an object per value.
 */

export const STR = 1;
export const BIN = 2;
export const NUM = 3;
export const NIL = 4;
export const TRUE = 5;
export const FALSE = 6;
export const ARR = 7;

export class PackedRow {
  bytes: Buffer = Buffer.alloc(0);
  /** Each value's kind (STR …), and where it lies: [start, end) of its bytes (ARR: its items'). */
  readonly kind: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** A NUM's value; an ARR's count of items. */
  readonly num: Float64Array;
  private dv: DataView = new DataView(new ArrayBuffer(0));

  constructor(readonly size: number) {
    this.kind = new Uint8Array(size);
    this.start = new Int32Array(size);
    this.end = new Int32Array(size);
    this.num = new Float64Array(size);
  }

  /** Reads a packed row; its bytes must stay as they are while the values are used. */
  read(b: Buffer): this {
    this.bytes = b;
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const t = b[0]!;
    let n: number;
    let p: number;
    if (t >= 0x90 && t <= 0x9f) [n, p] = [t & 0x0f, 1];
    else if (t === 0xdc) [n, p] = [this.dv.getUint16(1), 3];
    else if (t === 0xdd) [n, p] = [this.dv.getUint32(1), 5];
    else throw new Error("a packed row is not an array");
    if (n !== this.size) throw new Error(`a packed row of ${n} values, not ${this.size}`);
    for (let i = 0; i < n; i++) p = this.value(i, p);
    return this;
  }

  /**
   * Reads the value at `p` into slot `i` (-1: none kept); gives where the next one starts. (No
   * closure in here: tsx names every closure it makes, a call per value.)
   */
  private value(i: number, p: number): number {
    const b = this.bytes;
    const dv = this.dv;
    const t = b[p]!;
    if (t <= 0x7f) return this.put(i, NUM, p + 1, p + 1, t);
    if (t >= 0xe0) return this.put(i, NUM, p + 1, p + 1, t - 0x100);
    if (t >= 0xa0 && t <= 0xbf) return this.put(i, STR, p + 1, p + 1 + (t & 0x1f), 0);
    if (t >= 0x90 && t <= 0x9f) return this.array(i, p + 1, t & 0x0f);
    switch (t) {
      case 0xc0:
        return this.put(i, NIL, p + 1, p + 1, 0);
      case 0xd4: // msgpackr's undefined (an extension of type 0 and one byte): as nil
        return this.put(i, NIL, p + 3, p + 3, 0);
      case 0xc2:
        return this.put(i, FALSE, p + 1, p + 1, 0);
      case 0xc3:
        return this.put(i, TRUE, p + 1, p + 1, 0);
      case 0xd9:
        return this.put(i, STR, p + 2, p + 2 + b[p + 1]!, 0);
      case 0xda:
        return this.put(i, STR, p + 3, p + 3 + dv.getUint16(p + 1), 0);
      case 0xdb:
        return this.put(i, STR, p + 5, p + 5 + dv.getUint32(p + 1), 0);
      case 0xc4:
        return this.put(i, BIN, p + 2, p + 2 + b[p + 1]!, 0);
      case 0xc5:
        return this.put(i, BIN, p + 3, p + 3 + dv.getUint16(p + 1), 0);
      case 0xc6:
        return this.put(i, BIN, p + 5, p + 5 + dv.getUint32(p + 1), 0);
      case 0xcc:
        return this.put(i, NUM, p + 2, p + 2, b[p + 1]!);
      case 0xcd:
        return this.put(i, NUM, p + 3, p + 3, dv.getUint16(p + 1));
      case 0xce:
        return this.put(i, NUM, p + 5, p + 5, dv.getUint32(p + 1));
      case 0xcf:
        return this.put(i, NUM, p + 9, p + 9, Number(dv.getBigUint64(p + 1)));
      case 0xd0:
        return this.put(i, NUM, p + 2, p + 2, dv.getInt8(p + 1));
      case 0xd1:
        return this.put(i, NUM, p + 3, p + 3, dv.getInt16(p + 1));
      case 0xd2:
        return this.put(i, NUM, p + 5, p + 5, dv.getInt32(p + 1));
      case 0xd3:
        return this.put(i, NUM, p + 9, p + 9, Number(dv.getBigInt64(p + 1)));
      case 0xca:
        return this.put(i, NUM, p + 5, p + 5, dv.getFloat32(p + 1));
      case 0xcb:
        return this.put(i, NUM, p + 9, p + 9, dv.getFloat64(p + 1));
      case 0xdc:
        return this.array(i, p + 3, dv.getUint16(p + 1));
      case 0xdd:
        return this.array(i, p + 5, dv.getUint32(p + 1));
    }
    throw new Error(`a packed row's value of type 0x${t.toString(16)}`);
  }

  private put(i: number, kind: number, start: number, end: number, num: number) {
    if (i >= 0) {
      this.kind[i] = kind;
      this.start[i] = start;
      this.end[i] = end;
      this.num[i] = num;
    }
    return end;
  }

  private array(i: number, p: number, count: number) {
    let end = p;
    for (let k = 0; k < count; k++) end = this.value(-1, end);
    if (i >= 0) {
      this.kind[i] = ARR;
      this.start[i] = p;
      this.end[i] = end;
      this.num[i] = count;
    }
    return end;
  }

  /** Each item of ARR value `i`, read into `into`'s slot 0 in turn. */
  items(i: number, into: PackedRow, visit: (item: PackedRow) => void) {
    into.bytes = this.bytes;
    into.dv = this.dv;
    let p = this.start[i]!;
    for (let k = 0; k < this.num[i]!; k++) {
      p = into.value(0, p);
      visit(into);
    }
  }

  /** Value `i` as a string (for the few values an answer computes from: rare, not per field). */
  text(i: number): string {
    switch (this.kind[i]) {
      case STR:
        return Buffer.from(
          this.bytes.buffer,
          this.bytes.byteOffset,
          this.bytes.byteLength,
        ).toString("utf8", this.start[i], this.end[i]);
      case BIN:
        return `0x${this.bytes.toString("hex", this.start[i], this.end[i])}`;
      case NUM:
        return String(this.num[i]);
      case TRUE:
        return "true";
      case FALSE:
        return "false";
      default:
        return "";
    }
  }
}
