/**
 * A Map bounded to `capacity` entries, the least recently used dropped first: the memos of the trade path (PDA
 * derivations, read plans, account lists) all keep entries this way. A Map's insertion order is its recency
 * order here: a read moves the entry to the back, and the front is the oldest.
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  /** A map of at most `capacity` entries (a positive integer). */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError("capacity must be a positive integer");
  }

  /** Entries kept. */
  get size(): number {
    return this.map.size;
  }

  /** The value under `key`, now the most recently used; undefined when none is kept. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Whether `key` is kept (the recency order is left alone). */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` under `key` as the most recently used; the oldest entry goes past the capacity. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  /** The entries, least recently used first; reading them leaves the order as it is. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  /** Drops `key`; whether it was kept. */
  delete(key: K): boolean {
    return this.map.delete(key);
  }
}
