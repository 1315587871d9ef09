/**
 * A bounded map that forgets the least recently used entries first, bounded by entry count and
 * by total weight (for cached answers: their size in characters).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  /** Entries held. */
  get size(): number {
    return this.map.size;
  }

  /** Total weight held (for cached answers: bytes). */
  get weight(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  delete(key: K): void {
    const e = this.map.get(key);
    if (e) {
      this.total -= e.weight;
      this.map.delete(key);
    }
  }

  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > this.maxEntries || (this.total > this.maxWeight && this.map.size > 1))
      this.delete(this.map.keys().next().value as K);
  }

  /** Sets the weight of an entry once known (a cached answer's size after it is computed). */
  weigh(key: K, weight: number): void {
    const e = this.map.get(key);
    if (e) {
      this.total += weight - e.weight;
      e.weight = weight;
      while (this.total > this.maxWeight && this.map.size > 1)
        this.delete(this.map.keys().next().value as K);
    }
  }
}
