import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { Metrics } from './metrics.js';

describe('Metrics', () => {
  it('reports calls, errors and latency percentiles per capability', async () => {
    const metrics = new Metrics();
    for (let ms = 1; ms <= 100; ms++) metrics.observeCall('search.web', 'http', ms % 10 === 0 ? 'TIMEOUT' : 'ok', ms);
    metrics.observeCall('scrape.page', 'mcp', 'ok', 7);
    const { capabilities } = await metrics.snapshot();
    const search = capabilities['search.web']!;
    expect(search.calls).toBe(100);
    expect(search.errors).toBe(10);
    expect(search.p50_ms).toBeGreaterThanOrEqual(45);
    expect(search.p50_ms).toBeLessThanOrEqual(55);
    expect(search.p95_ms).toBeGreaterThanOrEqual(90);
    expect(search.p95_ms).toBeLessThanOrEqual(100);
    expect(search.p99_ms).toBeGreaterThanOrEqual(95);
    expect(capabilities['scrape.page']).toEqual({ calls: 1, errors: 0, p50_ms: 7, p95_ms: 7, p99_ms: 7 });
  });

  it('reports cache hit rates and engine error rates', async () => {
    const metrics = new Metrics();
    metrics.cacheLookup('search', true);
    metrics.cacheLookup('search', true);
    metrics.cacheLookup('search', true);
    metrics.cacheLookup('search', false);
    metrics.cacheLookup('scrape', false);
    metrics.engineRequest('duckduckgo', 'ok', 100);
    metrics.engineRequest('duckduckgo', 'ok', 300);
    metrics.engineRequest('duckduckgo', 'ENGINE_CAPTCHA', 200);
    metrics.engineRequest('duckduckgo', 'TIMEOUT', 200);
    const snapshot = await metrics.snapshot();
    expect(snapshot.cache).toEqual({
      search: { hits: 3, misses: 1, hit_rate: 0.75 },
      scrape: { hits: 0, misses: 1, hit_rate: 0 },
    });
    expect(snapshot.engines.duckduckgo).toEqual({ requests: 4, failures: 2, error_rate: 0.5, p50_ms: 200 });
  });

  it('reads gauges at collection time, with or without labels', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    let queued = 3;
    metrics.registerGauge('quarry_extraction_queue', 'Extractions waiting', () => queued);
    metrics.registerGauge('quarry_browser_pages', 'Open pages', () => [{ labels: { state: 'busy' }, value: 2 }], [
      'state',
    ]);
    queued = 5;
    const snapshot = await metrics.snapshot();
    expect(snapshot.gauges).toEqual({
      quarry_extraction_queue: 5,
      quarry_browser_pages: [{ labels: { state: 'busy' }, value: 2 }],
    });
    const text = await metrics.prometheus();
    expect(text).toContain('quarry_extraction_queue 5');
    expect(text).toContain('quarry_browser_pages{state="busy"} 2');
    expect(() => metrics.registerGauge('quarry_extraction_queue', 'again', () => 1)).toThrow(AppError);
  });

  it('exposes every metric in the Prometheus text format, default process metrics included', async () => {
    const metrics = new Metrics();
    metrics.observeCall('search.web', 'http', 'ok', 12);
    metrics.cacheLookup('search', false);
    metrics.engineRequest('brave', 'ok', 80);
    const text = await metrics.prometheus();
    for (const name of [
      'quarry_capability_calls_total{capability="search.web",host="http",status="ok"} 1',
      'quarry_capability_duration_ms{quantile="0.99",capability="search.web"} 12',
      'quarry_cache_lookups_total{area="search",result="miss"} 1',
      'quarry_engine_requests_total{engine="brave",outcome="ok"} 1',
      '# TYPE quarry_engine_duration_ms summary',
      'quarry_process_cpu_user_seconds_total',
      'quarry_nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(name);
    }
    expect(metrics.contentType).toContain('text/plain');
  });

  it('keeps each instance separate', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.observeCall('x', 'cli', 'ok', 1);
    expect((await b.snapshot()).capabilities).toEqual({});
    expect((await a.snapshot()).capabilities.x?.calls).toBe(1);
  });
});
