/**
 * The in-memory cache's store: a Map that forgets its least recently used
 * entries beyond a count and a byte budget. Keyv's default Map only drops an
 * expired entry when it is read again, so a busy server caching scraped
 * pages (screenshots and PDFs included) would otherwise grow without bound.
 */

/** Strings are counted at two bytes per UTF-16 unit; other values at a flat estimate. */
function sizeOf(value: unknown): number {
  return typeof value === 'string' ? value.length * 2 : 1024;
}

export class BoundedMap<K, V> extends Map<K, V> {
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {
    super();
  }

  override get(key: K): V | undefined {
    if (!super.has(key)) return undefined;
    // Re-insert so iteration order is least recently used first.
    const value = super.get(key) as V;
    super.delete(key);
    super.set(key, value);
    return value;
  }

  override set(key: K, value: V): this {
    if (super.has(key)) this.delete(key);
    super.set(key, value);
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
