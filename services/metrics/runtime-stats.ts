/**
 * Live performance state by name (pools, browser, page indexer, an area's
 * feeder), read when the performance endpoint is asked. The composition root
 * adds the shared parts; an area adds what it owns when it opens.
 */
export class RuntimeStats {
  private readonly sources = new Map<string, () => unknown>();

  add(name: string, read: () => unknown): void {
    if (this.sources.has(name)) throw new Error(`runtime stats "${name}" are already reported`);
    this.sources.set(name, read);
  }

  /** Every source's figures now, in the order they were added. */
  snapshot(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, read] of this.sources) out[name] = read();
    return out;
  }
}
