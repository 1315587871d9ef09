/**
 * Point lookups of one kind (a block by height, a transaction by hash) that arrive while another
 * batch of them is being read go to the store together, as one query for all their keys. A query
 * on the embedded engine costs milliseconds whatever it reads, and each lookup decompresses a
 * granule per column: 50 clients asking for 50 different blocks cost one query, not 50 queued
 * ones. A lookup that finds nothing in flight goes at once (in the next turn of the event loop),
 * so a lone request waits for nothing. Up to 4 batches are read at once, on the store's sessions
 * (@explorer/store's chdb-pool.ts): with 2, random lookups at 50 clients answered 990 req/s, with
 * 4, 1,200 (2 cores).
 */
export class Batcher<K, V> {
  private waiting = new Map<K, Waiter<V>[]>();
  private inFlight = 0;
  private scheduled = false;

  constructor(
    /** Reads the keys' values; keys it does not return are not found. */
    private readonly fetch: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
    /** Batches read at the same time, at most. */
    private readonly parallel = 4,
    /** Keys in one query, at most. */
    private readonly max = 256,
  ) {}

  /** The key's value, or undefined when the store has none. */
  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(key);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.inFlight >= this.parallel || this.waiting.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush() {
    if (this.inFlight >= this.parallel || this.waiting.size === 0) return;
    const batch = new Map<K, Waiter<V>[]>();
    for (const [k, list] of this.waiting) {
      if (batch.size >= this.max) break;
      batch.set(k, list);
      this.waiting.delete(k);
    }
    this.inFlight++;
    this.fetch([...batch.keys()])
      .then(
        (found) => {
          for (const [k, list] of batch) for (const w of list) w.resolve(found.get(k));
        },
        (e: unknown) => {
          for (const list of batch.values()) for (const w of list) w.reject(e);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.schedule();
      });
    this.schedule(); // a second batch may go while this one is read
  }
}

interface Waiter<V> {
  resolve(v: V | undefined): void;
  reject(e: unknown): void;
}

/** One value per owner (a batcher per store connection, say), made on first use. */
export const perOwner = <O extends object, V>(make: (owner: O) => V) => {
  const made = new WeakMap<O, V>();
  return (owner: O): V => {
    let v = made.get(owner);
    if (v === undefined) {
      v = make(owner);
      made.set(owner, v);
    }
    return v;
  };
};
