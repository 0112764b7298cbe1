import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import { DIMENSIONS, embedOne, fillerSpecs, page, TOPICS, type PageSpec } from './fixtures/pages.js';
import { openPageIndex, type PageIndexOptions } from './lance-page-index.js';
import type { PageIndex } from './types.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-pages-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(overrides: Partial<PageIndexOptions> = {}): Promise<PageIndex> {
  const index = await openPageIndex({
    dir: tempDir(),
    dimensions: DIMENSIONS,
    retentionDays: 0,
    maxChunks: 0,
    logger: silentLogger(),
    ...overrides,
  });
  cleanups.push(() => index.close());
  return index;
}

async function add(index: PageIndex, specs: PageSpec[]): Promise<void> {
  for (const spec of specs) await index.addPage(await page(spec));
}

const DAY = 86_400_000;

describe('LancePageIndex: writes', () => {
  it('stores pages and replaces all earlier chunks of a re-added URL', async () => {
    const index = await open();
    await add(index, TOPICS);
    expect(await index.stats()).toMatchObject({ chunks: 8, pages: 5, dimensions: DIMENSIONS });

    const markets = TOPICS[1]!;
    await add(index, [
      { ...markets, title: 'Updated', chunks: ['Markets recovered on Friday after the rate decision.'] },
    ]);
    expect(await index.stats()).toMatchObject({ chunks: 7, pages: 5 });
    const hits = await index.search({ text: 'markets', includeDomains: ['news.example.org'] });
    expect(hits.map((h) => [h.title, h.chunkIndex, h.text])).toEqual([
      ['Updated', 0, 'Markets recovered on Friday after the rate decision.'],
    ]);

    await index.addPage({ url: markets.url, title: 'Empty', chunks: [] });
    expect(await index.stats()).toMatchObject({ chunks: 6, pages: 4 });
  });

  it('keeps every concurrent write, in submission order for the same URL', async () => {
    const index = await open();
    const specs = fillerSpecs(12);
    const same = (n: number) =>
      page({
        url: 'https://same.example.com/',
        title: `v${n}`,
        chunks: Array.from({ length: n }, (_, k) => `version ${n} chunk ${k}`),
      });
    const pages = await Promise.all([...specs.map(page), same(3), same(1), same(2)]);
    await Promise.all(pages.map((p) => index.addPage(p)));
    expect(await index.stats()).toMatchObject({ chunks: 12 * 3 + 2, pages: 13 });
    const last = await index.search({ text: 'version', includeDomains: ['same.example.com'] });
    expect(last.map((h) => h.title)).toEqual(['v2', 'v2']);
  });

  it('rejects vectors of the wrong width and non-URLs', async () => {
    const index = await open();
    await expect(
      index.addPage({ url: 'https://x.example/', title: 't', chunks: [{ text: 'x', vector: new Float32Array(3) }] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(add(index, [{ url: 'not a url', title: 't', chunks: ['x'] }])).rejects.toBeInstanceOf(AppError);
    await expect(index.search({ vector: new Float32Array(3) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(index.search({})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('LancePageIndex: search', () => {
  it('ranks by cosine similarity for a vector query, scores in [0, 1]', async () => {
    const index = await open();
    await add(index, [...TOPICS, ...fillerSpecs(20)]);
    const hits = await index.search({
      vector: await embedOne('how much water should a sourdough starter get, hydration of flour'),
      limit: 5,
    });
    expect(hits).toHaveLength(5);
    expect(hits[0]).toMatchObject({
      url: TOPICS[0]!.url,
      domain: 'bakery.example.com',
      author: 'A. Baker',
      publishedDate: '2023-05-01',
    });
    for (const [i, hit] of hits.entries()) {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      if (i) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]!.score);
    }
    // A chunk's own embedding is its nearest neighbour, at similarity 1.
    const self = await index.search({ vector: await embedOne(TOPICS[2]!.chunks[1]!), limit: 1 });
    expect(self[0]).toMatchObject({ url: TOPICS[2]!.url, chunkIndex: 1 });
    expect(self[0]!.score).toBeCloseTo(1, 5);
  });

  it('finds words with full-text search (stemmed), creating the index lazily and seeing rows added after it', async () => {
    const index = await open();
    await add(index, [...TOPICS, ...fillerSpecs(10)]);
    const hits = await index.search({ text: 'borrowing checkers' });
    expect(hits[0]!.url).toBe(TOPICS[2]!.url);
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThan(1);

    await add(index, [
      { url: 'https://late.example.com/', title: 'Late', chunks: ['Zymurgy is the chemistry of fermentation.'] },
    ]);
    expect((await index.search({ text: 'zymurgy' })).map((h) => h.url)).toEqual(['https://late.example.com/']);
    expect(await index.search({ text: 'qwertyuiop' })).toEqual([]);
    // Query syntax characters are just text.
    await expect(index.search({ text: '"rust" AND (borrow' })).resolves.toBeInstanceOf(Array);
  });

  it('fuses vector and text rankings (RRF) for hybrid queries', async () => {
    const index = await open();
    await add(index, [...TOPICS, ...fillerSpecs(20)]);
    const text = 'central bank interest rates';
    const hybrid = await index.search({ text, vector: await embedOne(text), limit: 5 });
    expect(hybrid[0]).toMatchObject({ url: TOPICS[1]!.url, chunkIndex: 0 });
    expect(hybrid[0]!.score).toBeCloseTo(1, 5); // first in both lists
    for (const hit of hybrid) expect(hit.score).toBeLessThanOrEqual(1);

    // Text says "rust", the vector says sourdough: both pages come back near the top.
    const mixed = await index.search({
      text: 'borrow checker',
      vector: await embedOne('sourdough starter hydration flour'),
      limit: 4,
    });
    const urls = mixed.map((h) => h.url);
    expect(urls).toContain(TOPICS[0]!.url);
    expect(urls).toContain(TOPICS[2]!.url);
  });

  it('filters by domain, including subdomains, and by published date', async () => {
    const index = await open();
    await add(index, [...TOPICS, ...fillerSpecs(5)]);
    const query = { vector: await embedOne('anything at all'), limit: 50 };
    const domains = async (q: object) =>
      [...new Set((await index.search({ ...query, ...q })).map((h) => h.domain))].sort();

    expect(await domains({ includeDomains: ['example.com'] })).toEqual(['bakery.example.com', 'docs.example.com']);
    expect(await domains({ includeDomains: ['WWW.Bakery.Example.com', 'https://news.example.org/x'] })).toEqual([
      'bakery.example.com',
      'news.example.org',
    ]);
    expect(await domains({ excludeDomains: ['example.gov', 'example.com'] })).toEqual([
      'badexample.com',
      'blog.example.net',
      'news.example.org',
    ]);
    expect(await domains({ includeDomains: ["example.com') OR true OR ('"] })).toEqual([]);

    expect(await domains({ publishedAfter: '2024-01-01' })).toEqual([
      'badexample.com',
      'blog.example.net',
      'news.example.org',
    ]);
    // Bounds are inclusive and a bare date covers its whole day (the Rust page is 23:00Z that day).
    expect(await domains({ publishedAfter: '2024-01-15', publishedBefore: '2024-03-31' })).toEqual([
      'blog.example.net',
      'news.example.org',
    ]);
    expect(await domains({ publishedBefore: '2024-03-31T22:59:59Z' })).toEqual([
      'bakery.example.com',
      'news.example.org',
    ]);
    expect(await domains({ publishedBefore: '2030-01-01', includeDomains: ['example.com'] })).toEqual([
      'bakery.example.com',
    ]);
    await expect(index.search({ ...query, publishedAfter: 'last tuesday' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });

    const text = await index.search({ text: 'tomato rates sourdough', includeDomains: ['example.org'] });
    expect([...new Set(text.map((h) => h.url))]).toEqual([TOPICS[1]!.url]);
  });
});

describe('LancePageIndex: purge and retention', () => {
  it('purges by url, domain (with subdomains), fetch time and everything, counting chunks', async () => {
    const index = await open();
    const old = new Date(Date.now() - 10 * DAY);
    await add(index, [...TOPICS, ...fillerSpecs(3).map((s) => ({ ...s, fetchedAt: old }))]);
    await add(index, [{ url: "https://quote.example.net/it's", title: 'q', chunks: ['a', 'b'] }]);
    expect(await index.purge({ url: "https://quote.example.net/it's" })).toBe(2);
    expect(await index.purge({ url: TOPICS[0]!.url })).toBe(2);
    expect(await index.purge({ domain: 'example.net' })).toBe(2);
    expect(await index.purge({ domain: 'example.com' })).toBe(1); // docs.example.com, not badexample.com
    expect(await index.purge({ fetchedBefore: new Date(Date.now() - DAY) })).toBe(9);
    expect(await index.purge({ domain: 'example.org', fetchedBefore: old })).toBe(0);
    await expect(index.purge({})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await index.stats()).toMatchObject({ chunks: 3, pages: 2 });
    expect(await index.purge({ all: true })).toBe(3);
    expect(await index.stats()).toMatchObject({ chunks: 0, pages: 0 });
    expect(await index.search({ text: 'markets' })).toEqual([]);
  });

  it('drops pages older than retentionDays', async () => {
    const index = await open({ retentionDays: 30 });
    await add(
      index,
      fillerSpecs(4).map((s, i) => ({ ...s, fetchedAt: new Date(Date.now() - (i < 2 ? 31 : 29) * DAY) })),
    );
    expect(await index.applyRetention()).toBe(6);
    expect(await index.stats()).toMatchObject({ chunks: 6, pages: 2 });
  });

  it('drops whole pages, oldest fetched first, to get under maxChunks', async () => {
    const index = await open({ maxChunks: 7 });
    const specs = fillerSpecs(5).map((s, i) => ({ ...s, fetchedAt: new Date(Date.now() - (10 - i) * DAY) }));
    await add(index, specs.reverse());
    expect(await index.applyRetention()).toBe(9); // 15 chunks → 6: three pages of three
    const left = await index.search({ vector: await embedOne('America'), limit: 50 });
    expect(left).toHaveLength(6);
    expect(new Set(left.map((h) => h.url))).toEqual(
      new Set(['https://speech.example.gov/part/3', 'https://speech.example.gov/part/4']),
    );
    expect(await index.applyRetention()).toBe(0);
  });
});

describe('LancePageIndex: lifecycle', () => {
  it('keeps data across close and reopen, and refuses calls after close', async () => {
    const dir = tempDir();
    const options = { dir, dimensions: DIMENSIONS, retentionDays: 0, maxChunks: 0, logger: silentLogger() };
    const first = await openPageIndex(options);
    await add(first, TOPICS);
    await first.search({ text: 'rust' });
    await first.close();
    await expect(first.addPage(await page(TOPICS[0]!))).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    const second = await openPageIndex(options);
    cleanups.push(() => second.close());
    expect(await second.stats()).toMatchObject({ chunks: 8, pages: 5 });
    expect((await second.search({ text: 'asyncio' }))[0]!.url).toBe(TOPICS[3]!.url);
    expect((await second.search({ vector: await embedOne(TOPICS[4]!.chunks[0]!), limit: 1 }))[0]!.url).toBe(
      TOPICS[4]!.url,
    );
  });

  it('moves a table of another vector width aside, says so, and starts empty', async () => {
    const dir = tempDir();
    const first = await openPageIndex({
      dir,
      dimensions: DIMENSIONS,
      retentionDays: 0,
      maxChunks: 0,
      logger: silentLogger(),
    });
    await add(first, TOPICS);
    await first.close();

    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const second = await openPageIndex({ dir, dimensions: 64, retentionDays: 0, maxChunks: 0, logger });
    cleanups.push(() => second.close());
    expect(await second.stats()).toMatchObject({ chunks: 0, dimensions: 64 });
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.level === 40);
    expect(warning.msg).toMatch(/moved it aside/);
    expect(warning.reason).toMatch(/128 dimensions, 64 requested/);
    expect(readdirSync(join(dir, 'retired'))).toHaveLength(1);
    expect(existsSync(warning.movedTo)).toBe(true);
    await second.addPage({
      url: 'https://a.example/',
      title: 'a',
      chunks: [{ text: 'hello', vector: new Float32Array(64).fill(0.125) }],
    });
    expect((await second.stats()).chunks).toBe(1);
  });

  it('builds an ANN index past the threshold and still finds rows written after it', async () => {
    const index = await open({ annThreshold: 300 });
    await index.addPages!(await Promise.all(fillerSpecs(110).map(page)));
    expect((await index.stats()).vectorIndex ?? null).toBeNull();
    const report = await index.optimize!();
    expect(report).toMatchObject({ chunks: 330, vectorIndex: 'IvfFlat' });

    await add(index, TOPICS);
    const hit = await index.search({
      vector: await embedOne(TOPICS[2]!.chunks[0]!),
      limit: 1,
      includeDomains: ['example.net'],
    });
    expect(hit[0]).toMatchObject({ url: TOPICS[2]!.url, chunkIndex: 0 });
    expect((await index.search({ text: 'tomato' }))[0]!.url).toBe(TOPICS[4]!.url);
  });
});
