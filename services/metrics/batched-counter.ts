/**
 * A prom-client counter whose increments are added up in plain numbers and
 * handed to it when the metrics are read (its collect hook): prom-client's
 * inc() sorts, joins and validates the labels on every call, which was a
 * visible share of a cached search's own work. What is read is the same.
 */
import { Counter, type Registry } from 'prom-client';

export class BatchedCounter<L extends string> {
  private readonly pending = new Map<string, { labels: Record<L, string>; count: number }>();
  private readonly counter: Counter<L>;

  constructor(
    config: { name: string; help: string; registers: Registry[] },
    private readonly labelNames: readonly L[],
  ) {
    const pending = this.pending;
    this.counter = new Counter({
      ...config,
      labelNames,
      collect() {
        for (const { labels, count } of pending.values()) this.inc(labels, count);
        pending.clear();
      },
    });
  }

  /** Counts one event with these label values, in labelNames' order. */
  inc(...values: string[]): void {
    const key = values.join('\u0000');
    const entry = this.pending.get(key);
    if (entry) entry.count++;
    else this.pending.set(key, { labels: Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]])) as Record<L, string>, count: 1 });
  }

  /** Every labelled value counted so far. */
  async values(): Promise<Array<{ labels: Partial<Record<L, string | number>>; value: number }>> {
    return (await this.counter.get()).values;
  }
}
