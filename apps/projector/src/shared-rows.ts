/**
 * Memory shared with the main thread that a projection worker lends its encoded rows in, and
 * reuses once the main thread has written them (pool.ts, project-worker.ts).
 *
 * Why: an ArrayBuffer handed over to the main thread counts there as newly allocated memory
 * outside V8's heap, and every few dozen blocks that started a full collection of the main
 * thread's heap (~1 ms of CPU a block on the 1M-tx bench; docs/benchmarks.md, "Projector
 * throughput"). Shared memory is not counted so, and memory reused is not allocated again.
 *
 * Buffers come in sizes of powers of two (at least MIN_BYTES). A released buffer is kept for
 * reuse while the kept ones hold at most `keepBytes`; beyond that it is left to the collector.
 */
export const MIN_BYTES = 4096;

/** Kept for reuse by default: most of a batch's share of a worker (BATCH_BYTES 256 MiB, 2 workers). */
export const KEEP_BYTES = 96 * 1024 * 1024;

export interface Loan {
  /** Says which buffer to give back (release). */
  readonly lease: number;
  /** The rows, copied into shared memory. */
  readonly bytes: Uint8Array;
}

export class SharedRows {
  private readonly free = new Map<number, SharedArrayBuffer[]>();
  private readonly lent = new Map<number, SharedArrayBuffer>();
  private kept = 0;
  private next = 0;

  constructor(private readonly keepBytes = KEEP_BYTES) {}

  /** `rows` copied into a buffer of this lender's, lent until released. */
  lend(rows: Uint8Array): Loan {
    let size = MIN_BYTES;
    while (size < rows.length) size *= 2;
    const reused = this.free.get(size)?.pop();
    if (reused) this.kept -= size;
    const buffer = reused ?? new SharedArrayBuffer(size);
    const bytes = new Uint8Array(buffer, 0, rows.length);
    bytes.set(rows);
    const lease = this.next++;
    this.lent.set(lease, buffer);
    return { lease, bytes };
  }

  /** Takes these buffers back (an unknown lease is ignored: released twice, say). */
  release(leases: readonly number[]): void {
    for (const lease of leases) {
      const buffer = this.lent.get(lease);
      if (!buffer) continue;
      this.lent.delete(lease);
      if (this.kept + buffer.byteLength > this.keepBytes) continue;
      this.kept += buffer.byteLength;
      const list = this.free.get(buffer.byteLength);
      if (list) list.push(buffer);
      else this.free.set(buffer.byteLength, [buffer]);
    }
  }

  /** Bytes lent and not yet given back, and bytes kept for reuse. */
  get usage(): { lent: number; kept: number } {
    let lent = 0;
    for (const b of this.lent.values()) lent += b.byteLength;
    return { lent, kept: this.kept };
  }
}
