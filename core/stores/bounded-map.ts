/**
 * The in-memory cache's store: a Map forgetting its least recently used entries
 * past a count and a byte budget. Keyv's default Map drops an expired entry only
 * when it is read again: a server caching scraped pages would grow unbounded.
 */

/** Strings are counted at two bytes per UTF-16 unit; other values at a flat estimate. */
function sizeOf(value: unknown): number {
  return typeof value === 'string' ? value.length * 2 : 1024;
}

export class BoundedMap<K, V> extends Map<K, V> {
  private bytes = 0;
  private newest: K | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {
    super();
  }

  override get(key: K): V | undefined {
    // Re-insert so iteration order is least recently used first (the newest is last already: reading it again churns
    // nothing).
    if (key === this.newest || !super.has(key)) return super.get(key);
    const value = super.get(key) as V;
    super.delete(key);
    super.set((this.newest = key), value);
    return value;
  }

  override set(key: K, value: V): this {
    if (super.has(key)) this.delete(key);
    super.set((this.newest = key), value);
    this.bytes += sizeOf(value);
    for (const oldest of super.keys()) {
      if (super.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      if (oldest === key && super.size === 1) break;
      this.delete(oldest);
    }
    return this;
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false;
    this.bytes -= sizeOf(super.get(key));
    return super.delete(key);
  }

  override clear(): void {
    this.bytes = 0;
    super.clear();
  }

  usedBytes(): number {
    return this.bytes;
  }
}
