import { describe, expect, it } from 'vitest';
import { ExtractionStats } from './extraction-stats.js';

describe('ExtractionStats', () => {
  it('counts pages, failure reasons and rates over the last minute', () => {
    const stats = new ExtractionStats();
    stats.record(true, undefined, 20, 1_000);
    stats.record(false, 'captcha', 10, 2_000);
    stats.record(false, 'captcha', 30, 3_000);
    stats.record(false, 'empty', 20, 70_000);
    const figures = stats.figures(70_000);
    expect(figures).toMatchObject({
      pages: 4,
      succeeded: 1,
      failed: 3,
      failure_reasons: { captcha: 2, empty: 1 },
      mean_ms_per_page: 20,
      pages_per_second_per_worker: 50,
    });
    expect(Object.keys(figures.failure_reasons)).toEqual(['captcha', 'empty']);
    // Only the last page is inside the one-minute window.
    expect(figures.pages_per_second_last_minute).toBe(0.02);
  });

  it('reports zeros before any page', () => {
    expect(new ExtractionStats().figures()).toMatchObject({
      pages: 0,
      mean_ms_per_page: 0,
      pages_per_second_per_worker: 0,
    });
  });
});
