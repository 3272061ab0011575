// A least-recently-used map with a fixed capacity; evicted values are handed to `onEvict`
// (decoded tiles close their bitmaps there).

export class LRUMap {
  /** Keeps at most `capacity` entries. */
  constructor(capacity, onEvict = () => {}) {
    this.capacity = capacity;
    this.onEvict = onEvict;
    this.entries = new Map();
  }

  get size() {
    return this.entries.size;
  }

  has(key) {
    return this.entries.has(key);
  }

  /** The value for `key`, now the most recently used; undefined when absent. */
  get(key) {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value for `key` without changing the order of use. */
  peek(key) {
    return this.entries.get(key);
  }

  /** Stores `value` as the most recently used, evicting the least recently used beyond capacity. */
  set(key, value) {
    const old = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (old !== undefined && old !== value) this.onEvict(key, old);
    while (this.entries.size > this.capacity) {
      const [oldestKey, oldest] = this.entries.entries().next().value;
      this.entries.delete(oldestKey);
      this.onEvict(oldestKey, oldest);
    }
  }

  /** Removes every entry, evicting each. */
  clear() {
    for (const [key, value] of this.entries) this.onEvict(key, value);
    this.entries.clear();
  }
}
