/**
 * A prom-client counter whose increments are added up in plain numbers and
 * handed to it when the metrics are read (its collect hook): prom-client's
 * inc() sorts, joins and validates the labels on every call, which was a
 * visible share of a cached search's own work. What is read is the same.
 */
import { Counter, type Registry } from 'prom-client';

type Pending<L extends string> = { labels: Record<L, string>; count: number };

export class BatchedCounter<L extends string> {
  /** By first, second and third label value (the empty string when there are two labels): no key is built per event. */
  private readonly pending = new Map<string, Map<string, Map<string, Pending<L>>>>();
  private readonly counter: Counter<L>;

  constructor(
    config: { name: string; help: string; registers: Registry[] },
    private readonly labelNames: readonly [L, L] | readonly [L, L, L],
  ) {
    const pending = this.pending;
    this.counter = new Counter({
      ...config,
      labelNames,
      collect() {
        for (const seconds of pending.values())
          for (const thirds of seconds.values())
            for (const { labels, count } of thirds.values()) this.inc(labels, count);
        pending.clear();
      },
    });
  }

  /** Counts one event with these label values, in labelNames' order (the third only with three labels). */
  inc(first: string, second: string, third = ''): void {
    let seconds = this.pending.get(first);
    if (!seconds) this.pending.set(first, (seconds = new Map()));
    let thirds = seconds.get(second);
    if (!thirds) seconds.set(second, (thirds = new Map()));
    const entry = thirds.get(third);
    if (entry) entry.count++;
    else thirds.set(third, { labels: this.labelsOf([first, second, third]), count: 1 });
  }

  /** Every labelled value counted so far. */
  async values(): Promise<Array<{ labels: Partial<Record<L, string | number>>; value: number }>> {
    return (await this.counter.get()).values;
  }

  private labelsOf(values: string[]): Record<L, string> {
    return Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]])) as Record<L, string>;
  }
}
