import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { JobPages } from './job-pages.js';
import { pagesStatus, statusWordOf } from './job-status.js';
import type { JobRecord } from '../../services/jobs/types.js';

const doc = (url: string) => ({
  markdown: `text of ${url}`,
  metadata: { sourceURL: url, url, statusCode: 200, scrapeId: 's', cacheState: 'miss' as const },
});

const job = (over: Partial<JobRecord> = {}): JobRecord => ({
  id: 'crawl_0123456789abcdef',
  kind: 'firecrawl.crawl',
  status: 'processing',
  input: null,
  attempts: 1,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...over,
});

describe('JobPages', () => {
  it('keeps documents in order with their count, errors and robots-blocked URLs, each once', async () => {
    const pages = new JobPages(new Keyv(), 60_000);
    const writer = await pages.writer('j1');
    expect(writer.addDocument('https://a.example/1', doc('https://a.example/1'))).toBe(0);
    expect(writer.addDocument('https://a.example/2', doc('https://a.example/2'))).toBe(1);
    expect(writer.addDocument('https://a.example/1', doc('https://a.example/1'))).toBeNull();
    writer.addError('https://a.example/3', 'SCRAPE_SITE_ERROR', 'broken');
    writer.addRobotsBlocked(['https://a.example/private', 'https://a.example/private']);
    writer.setTotal(4);
    writer.setTotal(2);
    const state = await writer.flush();
    expect(state).toMatchObject({ stored: 2, total: 4, robotsBlocked: ['https://a.example/private'] });
    expect(state.errors).toEqual([
      expect.objectContaining({ url: 'https://a.example/3', code: 'SCRAPE_SITE_ERROR', error: 'broken' }),
    ]);
    expect((await pages.documents('j1', 0, 10)).map((d) => d.metadata.sourceURL)).toEqual([
      'https://a.example/1',
      'https://a.example/2',
    ]);
    expect(await pages.documents('j1', 1, 1)).toHaveLength(1);
    expect(await pages.state('other')).toMatchObject({ stored: 0, total: 0, errors: [], robotsBlocked: [] });
  });

  it('writes documents added while a write runs together, and never a count before its documents', async () => {
    const records = new Keyv();
    const stateWrites: number[] = [];
    const set = records.set.bind(records);
    records.set = (async (key: string, value: unknown, ttl?: number) => {
      if (key.endsWith(':state')) {
        const { stored } = value as { stored: number };
        // Every document the count covers is readable when the count is written.
        const covered = await records.getMany(Array.from({ length: stored }, (_, i) => `firecrawl:pages:j3:${i}`));
        expect(covered.every(Boolean)).toBe(true);
        stateWrites.push(stored);
      }
      return set(key, value, ttl);
    }) as typeof records.set;
    const writer = await new JobPages(records, 60_000).writer('j3');
    for (let i = 0; i < 30; i++) writer.addDocument(`https://a.example/${i}`, doc(`https://a.example/${i}`));
    expect((await writer.flush()).stored).toBe(30);
    expect(stateWrites).toEqual([30]);
  });

  it('a run after a crash continues the list: pages stored before are not stored again', async () => {
    const records = new Keyv();
    const first = await new JobPages(records, 60_000).writer('j2');
    first.addDocument('https://a.example/1', doc('https://a.example/1'));
    await first.flush();
    const again = await new JobPages(records, 60_000).writer('j2');
    expect(again.has('https://a.example/1')).toBe(true);
    expect(again.addDocument('https://a.example/1', doc('https://a.example/1'))).toBeNull();
    expect(again.addDocument('https://a.example/2', doc('https://a.example/2'))).toBe(1);
    expect((await again.flush()).stored).toBe(2);
  });
});

describe('pagesStatus', () => {
  it("pages by skip and limit, with next only while stored documents follow; the clients' status words", async () => {
    const pages = new JobPages(new Keyv(), 60_000);
    const writer = await pages.writer(job().id);
    for (let i = 0; i < 5; i++) writer.addDocument(`https://a.example/${i}`, doc(`https://a.example/${i}`));
    await writer.flush();
    const statusUrl = 'https://q.example/firecrawl/v2/crawl/crawl_0123456789abcdef';
    const first = await pagesStatus(pages, job(), { skip: 0, limit: 2, statusUrl }, 3600_000);
    expect(first).toMatchObject({ status: 'scraping', completed: 5, total: 5, creditsUsed: 5 });
    expect(first.data).toHaveLength(2);
    expect(first.next).toBe(`${statusUrl}?skip=2&limit=2`);
    const last = await pagesStatus(
      pages,
      job({ status: 'completed', finishedAt: '2030-01-01T01:00:00.000Z' }),
      { skip: 4, limit: 2, statusUrl },
      3600_000,
    );
    expect(last.data).toHaveLength(1);
    expect('next' in last).toBe(false);
    expect(last.expiresAt).toBe('2030-01-01T02:00:00.000Z');
    expect((await pagesStatus(pages, job(), { skip: 9, statusUrl }, 1)).data).toEqual([]);

    expect(statusWordOf({ status: 'queued' })).toBe('scraping');
    expect(statusWordOf({ status: 'failed', error: { code: 'CANCELLED', message: 'x' } })).toBe('cancelled');
    expect(statusWordOf({ status: 'failed', error: { code: 'INTERNAL', message: 'x' } })).toBe('failed');
  });
});
