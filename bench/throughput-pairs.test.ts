import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load-client.js';
import { coresBusy, pairedRatio } from './throughput-pairs.js';

const result = (perSecond: number, failed = 0): LoadResult => ({
  perSecond,
  failed,
  cpuMsPerRequest: 0.05,
  clientCpuMsPerRequest: 0.05,
});

describe('pairedRatio', () => {
  it('warms both routes, alternates them, and reports the median pair', async () => {
    const calls: string[] = [];
    const measuredRates = [999, 60, 90, 30];
    const paired = await pairedRatio(
      async (seconds) => {
        calls.push(`measured ${seconds}`);
        return result(measuredRates.shift()!);
      },
      async (seconds) => {
        calls.push(`baseline ${seconds}`);
        return result(100);
      },
      { pairs: 3, seconds: 3, warmSeconds: 1, what: 'test' },
    );
    expect(calls).toEqual([
      'measured 1',
      'baseline 1',
      'measured 3',
      'baseline 3',
      'measured 3',
      'baseline 3',
      'measured 3',
      'baseline 3',
    ]);
    // The warm-up's 999 is not a pair; the pairs are 0.6, 0.9 and 0.3, in the order run.
    expect(paired.pairs.map((p) => p.ratio)).toEqual([0.6, 0.9, 0.3]);
    expect(paired.median.ratio).toBe(0.6);
  });

  it('refuses a pair in which a request failed, naming the measurement', async () => {
    await expect(
      pairedRatio(
        async () => result(10, 2),
        async () => result(10),
        { pairs: 1, seconds: 1, warmSeconds: 1, what: 'cached on A' },
      ),
    ).rejects.toThrow(/cached on A: throughput run had failures \(2 and 0\)/);
  });
});

describe('coresBusy', () => {
  it('is the rate times the CPU per request, in cores', () => {
    expect(coresBusy(20_000, 0.05)).toBe(1);
    expect(coresBusy(10_000, 0.03)).toBeCloseTo(0.3);
  });
});
