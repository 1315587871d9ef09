import { describe, expect, it } from "vitest";
import { MIN_BYTES, SharedRows } from "./shared-rows.ts";

describe("rows lent in shared memory", () => {
  it("copies the rows into shared memory of a power-of-two size", () => {
    const rows = new SharedRows();
    const { bytes } = rows.lend(Uint8Array.from([1, 2, 3]));
    expect([...bytes]).toEqual([1, 2, 3]);
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(bytes.buffer.byteLength).toBe(MIN_BYTES);
    expect(rows.lend(new Uint8Array(MIN_BYTES + 1)).bytes.buffer.byteLength).toBe(MIN_BYTES * 2);
  });

  it("reuses a buffer once it is given back, and never one still lent", () => {
    const rows = new SharedRows();
    const a = rows.lend(new Uint8Array(100).fill(7));
    const b = rows.lend(new Uint8Array(100).fill(8));
    expect(b.bytes.buffer).not.toBe(a.bytes.buffer);
    expect([...a.bytes.subarray(0, 2)]).toEqual([7, 7]); // b did not overwrite a
    rows.release([a.lease]);
    rows.release([a.lease]); // twice: ignored
    const c = rows.lend(new Uint8Array(50).fill(9));
    expect(c.bytes.buffer).toBe(a.bytes.buffer);
    expect(rows.usage).toEqual({ lent: 2 * MIN_BYTES, kept: 0 });
  });

  it("keeps at most its bound for reuse", () => {
    const rows = new SharedRows(MIN_BYTES * 2);
    const loans = [1, 2, 3].map(() => rows.lend(new Uint8Array(10)));
    rows.release(loans.map((l) => l.lease));
    expect(rows.usage).toEqual({ lent: 0, kept: MIN_BYTES * 2 });
  });
});
