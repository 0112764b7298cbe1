/**
 * The reader's own rules with stand-ins for the network and the browser:
 * robots.txt is asked before a render or a scroll (and a refused page is
 * never rendered) and for every page the browser was redirected to, failures carry the one set of page codes, and the
 * page cache is used only when a caller passes a mode.
 */
import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { silentLogger } from '../../core/logger.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import type { RenderRequest, RenderResult } from '../browser/browser-pool.js';
import { emptyMetadata } from '../extract/failed-result.js';
import type { ExtractionResult, PageContent } from '../extract/types.js';
import type { PageRenderer } from './page-source.js';
import { Scraper } from './scraper.js';

const DISALLOWED = 'https://site.example/private/page';
const ALLOWED = 'https://site.example/open/page';
/** An open page the site redirects to a disallowed one. */
const REDIRECTING = 'https://site.example/open/moved';
const REDIRECTS: Record<string, string> = { [REDIRECTING]: DISALLOWED };

function html(url: string): OutboundResponse {
  const body = `<p>${url}</p>`;
  return { status: 200, headers: { 'content-type': 'text/html' }, body, bytes: Buffer.from(body), url, elapsedMs: 1 };
}

function reader(options: { chromium?: boolean; renderer?: PageRenderer } = {}) {
  const fetched: string[] = [];
  const rendered: string[] = [];
  const scrolled: string[] = [];
  const fetcher = {
    async fetch(request: OutboundRequest): Promise<OutboundResponse> {
      fetched.push(request.url);
      return html(request.url);
    },
    async checkRobots(url: string): Promise<void> {
      if (url.includes('/private/'))
        throw new AppError('ROBOTS_DISALLOWED', `robots.txt of https://site.example disallows ${url} for Quarry`);
    },
  };
  const renderer = options.renderer ?? {
    available: () => options.chromium ?? true,
    async render(url: string, _request: RenderRequest): Promise<RenderResult> {
      rendered.push(url);
      const finalUrl = REDIRECTS[url] ?? url;
      return {
        html: `<p>${finalUrl}</p>`,
        finalUrl,
        status: 200,
        navigationUrls: finalUrl === url ? [url] : [url, finalUrl],
      };
    },
    async scrollAndCollect(url: string) {
      scrolled.push(url);
      const finalUrl = REDIRECTS[url] ?? url;
      return {
        html: '<p>final</p>',
        snapshots: ['<p>earlier</p>'],
        finalUrl,
        navigationUrls: finalUrl === url ? [url] : [url, finalUrl],
      };
    },
  };
  const extract = async (content: PageContent, url: string): Promise<ExtractionResult> => ({
    url,
    title: url,
    text: typeof content === 'string' ? content : Buffer.from(content.bytes).toString('utf8'),
    markdown: typeof content === 'string' ? content : Buffer.from(content.bytes).toString('utf8'),
    metadata: emptyMetadata(),
    images: [],
    links: [],
    wordCount: 1,
    contentQualityScore: 0.5,
    success: true,
  });
  const parsing = {
    links: async () => [],
    mergeScroll: async (final: string, snapshots: string[]) => [final, ...snapshots].join(''),
  };
  const scraper = new Scraper(
    { fetcher, renderer, extract, parsing, cache: new Keyv(), logger: silentLogger() },
    { concurrency: 2 },
  );
  return { scraper, fetched, rendered, scrolled };
}

describe('the page reader', () => {
  it('asks robots.txt before rendering, and never renders a refused page', async () => {
    const { scraper, rendered } = reader();
    const [refused, open] = await scraper.scrapeMany([DISALLOWED, ALLOWED], { javascript: true, timeoutMs: 5000 });
    expect(refused).toMatchObject({ success: false, errorCode: 'ROBOTS_DISALLOWED', rendered: true });
    expect(refused!.failureReason).toMatch(/robots\.txt/);
    expect(open).toMatchObject({ success: true, rendered: true });
    expect(rendered).toEqual([ALLOWED]);
  });

  it('asks robots.txt before scrolling', async () => {
    const { scraper, scrolled } = reader();
    await expect(
      scraper.scroll(DISALLOWED, { maxScrolls: 2, scrollDelayMs: 0, timeoutMs: 5000 }),
    ).rejects.toMatchObject({ code: 'ROBOTS_DISALLOWED' });
    expect(await scraper.scroll(ALLOWED, { maxScrolls: 2, scrollDelayMs: 0, timeoutMs: 5000 })).toEqual({
      html: '<p>final</p><p>earlier</p>',
      snapshots: 1,
      finalUrl: ALLOWED,
    });
    expect(scrolled).toEqual([ALLOWED]);
  });

  it('asks robots.txt for where a render or a scroll was redirected, and discards a disallowed one', async () => {
    const { scraper } = reader();
    const [moved] = await scraper.scrapeMany([REDIRECTING], { javascript: true, timeoutMs: 5000, includeHtml: true });
    expect(moved).toMatchObject({ success: false, errorCode: 'ROBOTS_DISALLOWED', rendered: true });
    expect(moved!.failureReason).toContain(DISALLOWED);
    expect(moved!.html).toBeUndefined();
    await expect(
      scraper.scroll(REDIRECTING, { maxScrolls: 2, scrollDelayMs: 0, timeoutMs: 5000 }),
    ).rejects.toMatchObject({ code: 'ROBOTS_DISALLOWED' });
  });

  it('fails rendering per page with JAVASCRIPT_UNAVAILABLE when there is no Chromium', async () => {
    const { scraper } = reader({ chromium: false });
    const [page] = await scraper.scrapeMany([ALLOWED], { javascript: true, timeoutMs: 5000 });
    expect(page).toMatchObject({ success: false, errorCode: 'JAVASCRIPT_UNAVAILABLE' });
  });

  it('uses the page cache only when asked, and by mode', async () => {
    const { scraper, fetched } = reader();
    await scraper.scrapeOne(ALLOWED, {});
    await scraper.scrapeOne(ALLOWED, {});
    expect(fetched).toHaveLength(2);
    const cache = { mode: 'enabled' as const, ttlSeconds: 60 };
    expect((await scraper.scrapeOne(ALLOWED, { cache })).fromCache).toBeUndefined();
    expect((await scraper.scrapeOne(ALLOWED, { cache })).fromCache).toBe(true);
    expect(fetched).toHaveLength(3);
    expect((await scraper.scrapeOne(ALLOWED, { cache: { mode: 'bypass', ttlSeconds: 60 } })).fromCache).toBeUndefined();
    // A different extraction is a different entry.
    expect((await scraper.scrapeOne(ALLOWED, { cache, extract: { markdown: false } })).fromCache).toBeUndefined();
    expect(fetched).toHaveLength(5);
  });

  it('renders a read with actions, a phone profile or waitFor, and keeps each in its own cache entry', async () => {
    const { scraper, rendered, fetched } = reader();
    const cache = { mode: 'enabled' as const, ttlSeconds: 60 };
    await scraper.scrapeOne(ALLOWED, { javascript: true, cache });
    const actions = [{ type: 'scrape' as const }];
    expect((await scraper.scrapeOne(ALLOWED, { actions, cache })).fromCache).toBeUndefined();
    expect((await scraper.scrapeOne(ALLOWED, { actions, cache })).fromCache).toBe(true);
    expect((await scraper.scrapeOne(ALLOWED, { mobile: true, cache })).fromCache).toBeUndefined();
    expect((await scraper.scrapeOne(ALLOWED, { waitFor: 100, cache })).fromCache).toBeUndefined();
    expect(
      (await scraper.scrapeOne(ALLOWED, { javascript: true, headers: { 'x-a': '1' }, cache })).fromCache,
    ).toBeUndefined();
    // Only a dropped header differs: the same entry as no headers at all.
    expect(
      (await scraper.scrapeOne(ALLOWED, { javascript: true, headers: { host: 'elsewhere' }, cache })).fromCache,
    ).toBe(true);
    expect(rendered).toEqual([ALLOWED, ALLOWED, ALLOWED, ALLOWED, ALLOWED]);
    expect(fetched).toEqual([]);
  });

  it('reports an action the browser could not do as ACTION_FAILED naming it', async () => {
    const renderer: PageRenderer = {
      available: () => true,
      render: async () => {
        throw new AppError('ACTION_FAILED', 'action 2 (click) could not be done: Timeout 5000ms exceeded.', {
          details: { action_index: 2, action_type: 'click', selector: '#x' },
        });
      },
      scrollAndCollect: async () => {
        throw new Error('not used');
      },
    };
    const { scraper: failing } = reader({ renderer });
    const page = await failing.scrapeOne(ALLOWED, {
      actions: [{ type: 'scrape' }, { type: 'scrape' }, { type: 'click', selector: '#x' }],
    });
    expect(page).toMatchObject({
      success: false,
      rendered: true,
      errorCode: 'ACTION_FAILED',
      failedAction: { index: 2, type: 'click' },
    });
    expect(page.failureReason).toMatch(/^action 2 \(click\)/);
  });
});
