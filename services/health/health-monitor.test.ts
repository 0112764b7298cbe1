import { describe, expect, it } from 'vitest';
import { HealthMonitor } from './health-monitor.js';

describe('HealthMonitor', () => {
  it('is healthy when every check passes, degraded naming the one that fails', async () => {
    const monitor = new HealthMonitor([
      { name: 'fine', run: async () => 'all good' },
      { name: 'broken', run: async () => Promise.reject(new Error('disk on fire')) },
    ]);
    const report = await monitor.report();
    expect(report.status).toBe('degraded');
    expect(report.services.fine).toMatchObject({ status: 'healthy', detail: 'all good' });
    expect(report.services.broken).toMatchObject({ status: 'unhealthy', detail: 'disk on fire' });
    expect(Number.isInteger(report.services.fine!.response_time_ms)).toBe(true);
  });

  it('fails a check that does not answer in time, and aborts it', async () => {
    let aborted = false;
    const monitor = new HealthMonitor([
      {
        name: 'slow',
        timeoutMs: 50,
        run: (signal) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve('too late');
            });
          }),
      },
    ]);
    const report = await monitor.report();
    expect(report.services.slow).toMatchObject({ status: 'unhealthy', detail: 'no answer within 50 ms' });
    expect(aborted).toBe(true);
  });

  it('reuses a result for its interval, and callers arriving together share one run', async () => {
    let now = 0;
    let runs = 0;
    const monitor = new HealthMonitor([{ name: 'counted', cacheMs: 1000, run: async () => void runs++ }], () => now);
    await Promise.all([monitor.report(), monitor.report(), monitor.report()]);
    expect(runs).toBe(1);
    now = 999;
    await monitor.report();
    expect(runs).toBe(1);
    now = 1001;
    await monitor.report();
    expect(runs).toBe(2);
  });
});
