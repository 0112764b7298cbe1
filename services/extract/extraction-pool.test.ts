import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { loadPage } from '../../test/fixtures/pages/load-page.js';
import { ExtractionPool } from './extraction-pool.js';

// Runs the built worker (dist/workers/extract.worker.js): `npm run build` first, as for every pool test.
const pool = new ExtractionPool({ threads: 1, maxQueue: 4, heapMb: 64 });
afterAll(() => pool.close());

describe('ExtractionPool heap limit', () => {
  it('refuses a page too large for the thread heap with RESPONSE_TOO_LARGE naming the setting, then reads the next', async () => {
    const page = loadPage('zyte-aljazeera-helicopter.html.gz');
    const body = page.replace(/^[\s\S]*?<body[^>]*>/i, '').replace(/<\/body>[\s\S]*$/i, '');
    // About 8 MB of real article markup under one body: far more DOM than 64 MB of heap holds.
    const huge = `<html><head><title>huge</title></head><body>${body.repeat(Math.ceil(8e6 / body.length))}</body></html>`;
    const error = await pool.extract(huge, 'https://www.aljazeera.com/huge').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RESPONSE_TOO_LARGE');
    expect((error as AppError).message).toContain('pools.extractHeapMb');
    const next = await pool.extract(page, 'https://www.aljazeera.com/news');
    expect(next.text.length).toBeGreaterThan(1000);
  });
});
