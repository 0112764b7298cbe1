/**
 * A Prometheus summary (quantiles over a sliding window, plus _sum and
 * _count) that is cheap to observe. prom-client's Summary keeps a t-digest
 * per age bucket and inserts every observation into each of them: about
 * 10 µs a call with five buckets, paid on every capability call and engine
 * request. Here an observation increments one log-scale bucket of the
 * current time slot (a Map entry); quantiles are computed only when metrics
 * are read, from the slots still inside the window.
 *
 * Accuracy: buckets are 5 % wide and report the mean of what fell into
 * them, clamped to the window's smallest and largest observation, so a
 * quantile is within 2.5 % of the true value and exact when the values in
 * its bucket are equal (a single observation, repeated values).
 */
import type { Registry } from 'prom-client';

const GROWTH = 1.05;
const LOG_GROWTH = Math.log(GROWTH);
/** Values at or below zero share one bucket. */
const NON_POSITIVE = Number.NEGATIVE_INFINITY;

interface Bucket {
  count: number;
  sum: number;
}

interface Slot {
  startedAt: number;
  buckets: Map<number, Bucket>;
  count: number;
  min: number;
  max: number;
}

interface Series {
  labels: Record<string, string>;
  /** Newest last; at most `slots` entries. */
  slots: Slot[];
  sum: number;
  count: number;
}

export interface WindowedSummaryOptions {
  name: string;
  help: string;
  labelName: string;
  percentiles: number[];
  windowMs: number;
  /** Slots the window is cut into: observations leave it one slot at a time. */
  slots: number;
  registers: Registry[];
  /** For tests: the clock. */
  now?: () => number;
}

/** The value shape prom-client's registry serialises (and Metrics.snapshot reads). */
export interface SummaryValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

export class WindowedSummary {
  readonly name: string;
  readonly help: string;
  readonly type = 'summary';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();
  private readonly slotMs: number;
  private readonly now: () => number;

  constructor(private readonly options: WindowedSummaryOptions) {
    this.name = options.name;
    this.help = options.help;
    this.slotMs = options.windowMs / options.slots;
    this.now = options.now ?? Date.now;
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  observe(labelValue: string, value: number): void {
    let series = this.series.get(labelValue);
    if (!series) {
      series = { labels: { [this.options.labelName]: labelValue }, slots: [], sum: 0, count: 0 };
      this.series.set(labelValue, series);
    }
    series.sum += value;
    series.count++;
    const slot = this.currentSlot(series);
    const index = value > 0 ? Math.floor(Math.log(value) / LOG_GROWTH) : NON_POSITIVE;
    const bucket = slot.buckets.get(index);
    if (bucket) {
      bucket.count++;
      bucket.sum += value;
    } else {
      slot.buckets.set(index, { count: 1, sum: value });
    }
    slot.count++;
    if (value < slot.min) slot.min = value;
    if (value > slot.max) slot.max = value;
  }

  /**
   * What prom-client's registry reads: the quantiles of each series (NaN when its window is empty), then _sum and
   * _count.
   */
  get(): { name: string; help: string; type: string; aggregator: string; values: SummaryValue[] } {
    const values: SummaryValue[] = [];
    for (const series of this.series.values()) {
      const quantiles = this.quantiles(series);
      this.options.percentiles.forEach((quantile, i) =>
        values.push({ labels: { quantile, ...series.labels }, value: quantiles[i]! }),
      );
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  private currentSlot(series: Series): Slot {
    const now = this.now();
    const newest = series.slots[series.slots.length - 1];
    if (newest && now - newest.startedAt < this.slotMs) return newest;
    const slot: Slot = {
      startedAt: now,
      buckets: new Map(),
      count: 0,
      min: Number.POSITIVE_INFINITY,
      max: Number.NEGATIVE_INFINITY,
    };
    series.slots.push(slot);
    if (series.slots.length > this.options.slots) series.slots.shift();
    return slot;
  }

  /** Rank ceil(q·n) of the observations in the window, read from the merged buckets. */
  private quantiles(series: Series): number[] {
    const since = this.now() - this.options.windowMs;
    const live = series.slots.filter((slot) => slot.startedAt > since);
    const merged = new Map<number, Bucket>();
    let count = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const slot of live) {
      count += slot.count;
      min = Math.min(min, slot.min);
      max = Math.max(max, slot.max);
      for (const [index, bucket] of slot.buckets) {
        const into = merged.get(index);
        if (into) {
          into.count += bucket.count;
          into.sum += bucket.sum;
        } else {
          merged.set(index, { ...bucket });
        }
      }
    }
    if (count === 0) return this.options.percentiles.map(() => Number.NaN);
    const ordered = [...merged.entries()].sort((a, b) => a[0] - b[0]).map(([, bucket]) => bucket);
    return this.options.percentiles.map((quantile) => {
      const rank = Math.max(1, Math.ceil(quantile * count));
      let seen = 0;
      for (const bucket of ordered) {
        seen += bucket.count;
        if (seen >= rank) return Math.min(max, Math.max(min, bucket.sum / bucket.count));
      }
      return max;
    });
  }
}
