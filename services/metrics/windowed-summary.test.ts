import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { WindowedSummary } from './windowed-summary.js';

function summary(clock: { now: number }, registry = new Registry()): WindowedSummary {
  return new WindowedSummary({
    name: 'test_duration_ms',
    help: 'test latency',
    labelName: 'capability',
    percentiles: [0.5, 0.95, 0.99],
    windowMs: 600_000,
    slots: 5,
    registers: [registry],
    now: () => clock.now,
  });
}

function quantilesOf(metric: WindowedSummary, label: string): number[] {
  return metric
    .get()
    .values.filter((v) => v.metricName === undefined && v.labels.capability === label)
    .map((v) => v.value);
}

describe('WindowedSummary', () => {
  it('reads quantiles within 2.5 % of the exact ones', () => {
    const clock = { now: 0 };
    const metric = summary(clock);
    // A skewed latency distribution, reproducible (a fixed linear congruential sequence).
    let seed = 42;
    const values: number[] = [];
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const value = 0.2 + (seed / 2 ** 31) ** 3 * 400;
      values.push(value);
      metric.observe('search.web', value);
    }
    values.sort((a, b) => a - b);
    const exact = [0.5, 0.95, 0.99].map((q) => values[Math.ceil(q * values.length) - 1]!);
    quantilesOf(metric, 'search.web').forEach((estimate, i) => {
      expect(Math.abs(estimate - exact[i]!) / exact[i]!).toBeLessThanOrEqual(0.025);
    });
  });

  it('is exact for equal values, and zero or negative ones', () => {
    const metric = summary({ now: 0 });
    metric.observe('a', 7);
    for (let i = 0; i < 3; i++) metric.observe('b', 0);
    expect(quantilesOf(metric, 'a')).toEqual([7, 7, 7]);
    expect(quantilesOf(metric, 'b')).toEqual([0, 0, 0]);
  });

  it('forgets observations older than the window, a slot at a time, but keeps _sum and _count', () => {
    const clock = { now: 1_000_000 };
    const metric = summary(clock);
    metric.observe('x', 1000);
    clock.now += 300_000;
    metric.observe('x', 10);
    expect(quantilesOf(metric, 'x')).toEqual([10, 1000, 1000]);
    clock.now += 300_001; // the first slot is now older than ten minutes
    expect(quantilesOf(metric, 'x')).toEqual([10, 10, 10]);
    clock.now += 600_000;
    expect(quantilesOf(metric, 'x').every(Number.isNaN)).toBe(true);
    const totals = metric.get().values.filter((v) => v.metricName !== undefined);
    expect(totals).toEqual([
      { metricName: 'test_duration_ms_sum', labels: { capability: 'x' }, value: 1010 },
      { metricName: 'test_duration_ms_count', labels: { capability: 'x' }, value: 2 },
    ]);
  });

  it('is served as a Prometheus summary by the registry', async () => {
    const registry = new Registry();
    const metric = summary({ now: 0 }, registry);
    metric.observe('search.web', 12);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE test_duration_ms summary');
    expect(text).toContain('test_duration_ms{quantile="0.5",capability="search.web"} 12');
    expect(text).toContain('test_duration_ms_sum{capability="search.web"} 12');
    expect(text).toContain('test_duration_ms_count{capability="search.web"} 1');
  });
});
