/**
 * The page indexer on a real LanceDB index and the real chunker, with the hashing embedding for vectors (what the
 * page-index tests use): pages are written in batches, a partial batch on its timer, the newest version of a page
 * wins, and pages accepted by an indexer that never wrote them (a process killed) are indexed by the next one from the
 * journal.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { createEventBus } from '../../core/events.js';
import { silentLogger } from '../../core/logger.js';
import { pooledBatchChunker, type BatchChunker } from '../chunking/lead.js';
import type { Embedder } from '../embeddings/types.js';
import { ExtractionPool } from '../extract/extraction-pool.js';
import { until } from '../../test/sandbox/until.js';
import { DIMENSIONS, embed, embedOne, fillerSpecs } from '../vectors/fixtures/pages.js';
import { openPageIndex } from '../vectors/lance-page-index.js';
import type { PageIndex } from '../vectors/types.js';
import type { PageEvents, PageExtractedEvent } from './page-events.js';
import { PageIndexer, type PageIndexerOptions } from './page-indexer.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-indexer-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const embedder: Embedder = {
  embed,
  info: () => ({ id: 'hashing', source: 'embedded', dimensions: DIMENSIONS }),
  close: async () => undefined,
};

/** A real index that also counts its commits (addPages calls) and can be made to fail. */
async function countedIndex(): Promise<{ index: PageIndex; commits: number[]; failNext: (times: number) => void }> {
  const real = await openPageIndex({
    dir: tempDir(),
    dimensions: DIMENSIONS,
    retentionDays: 0,
    maxChunks: 0,
    logger: silentLogger(),
  });
  cleanups.push(() => real.close());
  const commits: number[] = [];
  let failures = 0;
  const index: PageIndex = {
    ...real,
    async addPages(pages) {
      if (failures > 0) {
        failures--;
        throw new AppError('UNAVAILABLE', 'the disk went away');
      }
      commits.push(pages.length);
      await real.addPages!(pages);
    },
  };
  return { index, commits, failNext: (times) => (failures = times) };
}

function indexerOn(index: PageIndex, options: PageIndexerOptions = {}, chunker?: BatchChunker) {
  const events = createEventBus<PageEvents>();
  const indexer = new PageIndexer(
    events,
    { pageIndex: async () => index, embedder: async () => embedder },
    silentLogger(),
    chunker,
    options,
  );
  indexer.start();
  cleanups.push(() => indexer.stop());
  return { events, indexer };
}

const pages: PageExtractedEvent[] = fillerSpecs(150).map((spec) => ({
  url: spec.url,
  title: spec.title,
  text: spec.chunks.join('\n\n'),
  publishedDate: null,
  author: null,
}));

async function pagesIn(index: PageIndex): Promise<number> {
  return (await index.stats()).pages;
}

describe('the page indexer', () => {
  it('writes a crawl’s pages in a few commits, not one per page', async () => {
    const { index, commits } = await countedIndex();
    const { events, indexer } = indexerOn(index, { batchPages: 64, flushMs: 60_000 });
    for (const page of pages) events.emit('page.extracted', page);
    // Two full batches are written as they fill; the rest waits for its timer, or for idle.
    expect(indexer.stats().queued).toBe(150);
    await indexer.idle();
    expect(commits.reduce((sum, n) => sum + n, 0)).toBe(150);
    expect(commits.length).toBeLessThanOrEqual(3);
    expect(indexer.stats()).toEqual({ indexed: 150, dropped: 0, failed: 0, queued: 0 });
    expect(await pagesIn(index)).toBe(150);
  });

  it('chunks a batch in one worker-pool task, as the pages would be chunked one by one', async () => {
    // The built worker (dist/workers/extract.worker.js), as every pool test: `npm run build` first.
    const pool = new ExtractionPool({ threads: 1, maxQueue: 4 });
    cleanups.push(() => pool.close());
    const pooled = await countedIndex();
    const { events, indexer } = indexerOn(pooled.index, { flushMs: 60_000 }, pooledBatchChunker(pool));
    const local = await countedIndex();
    const inProcess = indexerOn(local.index, { flushMs: 60_000 });
    for (const page of pages.slice(0, 40)) {
      events.emit('page.extracted', page);
      inProcess.events.emit('page.extracted', page);
    }
    await Promise.all([indexer.idle(), inProcess.indexer.idle()]);
    expect(pool.stats().completed).toBe(1);
    const probe = await embedOne(`${pages[11]!.title}\n${pages[11]!.text}`);
    expect(await pooled.index.search({ vector: probe, limit: 3 })).toEqual(
      await local.index.search({ vector: probe, limit: 3 }),
    );
    expect(await pagesIn(pooled.index)).toBe(40);
  });

  it('writes a partial batch once its time is up', async () => {
    const { index, commits } = await countedIndex();
    const { events, indexer } = indexerOn(index, { batchPages: 64, flushMs: 50 });
    for (const page of pages.slice(0, 3)) events.emit('page.extracted', page);
    await until('the three pages to be written', async () => indexer.stats().indexed === 3, 10_000);
    expect(commits).toEqual([3]);
    expect(await pagesIn(index)).toBe(3);
  });

  it('indexes the newest version of a page read twice before its batch was written', async () => {
    const { index } = await countedIndex();
    const { events, indexer } = indexerOn(index, { flushMs: 60_000 });
    const url = 'https://news.example.org/story';
    const old = 'The council voted to close the old bridge to cars from March while engineers inspect it closely.';
    const now = 'The council reopened the bridge to buses and bicycles after engineers found the deck sound again.';
    events.emit('page.extracted', { url, title: 'Bridge', text: old, publishedDate: null, author: null });
    events.emit('page.extracted', { url, title: 'Bridge', text: now, publishedDate: null, author: null });
    await indexer.idle();
    const hits = await index.search({ vector: await embedOne(`Bridge\n${now}`), limit: 5 });
    expect(hits.map((hit) => hit.text)).toEqual([now]);
  });

  it('tries a batch whose commit failed once more, then counts its pages as failed', async () => {
    const { index, failNext } = await countedIndex();
    const { events, indexer } = indexerOn(index, { flushMs: 60_000, journalDir: join(tempDir(), 'journal') });
    failNext(1);
    for (const page of pages.slice(0, 5)) events.emit('page.extracted', page);
    await indexer.idle();
    expect(indexer.stats()).toMatchObject({ indexed: 5, failed: 0, queued: 0 });

    failNext(2);
    for (const page of pages.slice(5, 8)) events.emit('page.extracted', page);
    await indexer.idle();
    expect(indexer.stats()).toMatchObject({ indexed: 5, failed: 3, queued: 0 });
    expect(await pagesIn(index)).toBe(5);
  });
});

describe('the page indexer’s journal', () => {
  it('indexes, on the next start, the pages a stopped process had accepted and not written', async () => {
    const journalDir = join(tempDir(), 'journal');
    const first = await countedIndex();
    // The first process accepts pages and dies before their batch is due: its index never sees them.
    const before = indexerOn(first.index, { batchPages: 1_000, flushMs: 60_000, journalDir });
    for (const page of pages.slice(0, 40)) before.events.emit('page.extracted', page);
    expect(first.commits).toEqual([]);
    const [segment] = readdirSync(journalDir);
    expect(segment).toBeDefined();
    // A line cut short by the kill, and one that is not a page, are skipped.
    appendFileSync(join(journalDir, segment!), '{"page":{"url":"https://cut.example.com/","ti\n{"page":7}\n');

    const second = await countedIndex();
    const after = indexerOn(second.index, { journalDir });
    await after.indexer.idle();
    expect(after.indexer.stats()).toMatchObject({ indexed: 40, queued: 0 });
    expect(await pagesIn(second.index)).toBe(40);
    const seventh = pages[7]!;
    const [hit] = await second.index.search({ vector: await embedOne(`${seventh.title}\n${seventh.text}`) });
    expect(hit).toMatchObject({ url: seventh.url, title: seventh.title, text: seventh.text });
    // Written, so the journal no longer holds them: a third start has nothing to redo.
    expect(readdirSync(journalDir)).toEqual([]);
  });

  it('keeps the pages it could not write at shutdown for the next start', async () => {
    const journalDir = join(tempDir(), 'journal');
    const first = await countedIndex();
    const before = indexerOn(first.index, { flushMs: 60_000, journalDir });
    first.failNext(10);
    for (const page of pages.slice(0, 4)) before.events.emit('page.extracted', page);
    await before.indexer.stop();
    expect(before.indexer.stats()).toMatchObject({ indexed: 0, queued: 0 });

    const second = await countedIndex();
    const after = indexerOn(second.index, { journalDir });
    await after.indexer.idle();
    expect(await pagesIn(second.index)).toBe(4);
    expect(readdirSync(journalDir)).toEqual([]);
  });
});
