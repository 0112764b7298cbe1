/**
 * A statically fetched page reaches extraction as its bytes and is decoded
 * there, by the charset its <meta> names: the reader itself never decodes it
 * (its response's text throws if read), not even when the answer includes the
 * markup: extraction hands that back, decoded.
 */
import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import type { OutboundResponse } from '../../core/http/types.js';
import { silentLogger } from '../../core/logger.js';
import run from '../../workers/extract.worker.js';
import type { ExtractOptions, PageContent } from '../extract/types.js';
import type { PageRenderer } from './page-source.js';
import { Scraper } from './scraper.js';

const PAGE =
  '<html><head><meta charset="windows-1252"><title>Café prices</title></head><body><article>' +
  '<h1>Café prices</h1><p>“The flat white costs 3 €”, the owner said – and the crème brûlée 5 €. ' +
  'Prices here have not changed since the café opened its doors on the square three years ' +
  'ago.</p></article></body></html>';
/** The page in windows-1252: its quotes, dash and € are bytes 0x80–0x9F, which are not UTF-8 (nor ISO-8859-1). */
const CP1252: Record<string, number> = { '“': 0x93, '”': 0x94, '–': 0x96, '€': 0x80 };
const BYTES = Uint8Array.from([...PAGE].map((c) => CP1252[c] ?? c.charCodeAt(0)));

const noBrowser: PageRenderer = {
  available: () => false,
  render: () => Promise.reject(new Error('no browser in this test')),
  scrollAndCollect: () => Promise.reject(new Error('no browser in this test')),
};

function reader(): { scraper: Scraper; handed: PageContent[] } {
  const handed: PageContent[] = [];
  const fetcher = {
    async fetch(): Promise<OutboundResponse> {
      const response = {
        status: 200,
        headers: { 'content-type': 'text/html' },
        bytes: Uint8Array.from(BYTES),
        url: 'https://cafe.example/prices',
        elapsedMs: 1,
      };
      return Object.defineProperty(response, 'body', {
        get: () => {
          throw new Error('the reader decoded the page itself');
        },
      }) as unknown as OutboundResponse;
    },
    checkRobots: async () => undefined,
  };
  // The worker's entry point, called in-process: the same code the pool runs.
  const extract = async (content: PageContent, url: string, options: ExtractOptions) => {
    handed.push(content);
    return run(typeof content === 'string' ? { html: content, url, options } : { ...content, url, options });
  };
  const parsing = { links: () => Promise.resolve([]), mergeScroll: (html: string) => Promise.resolve(html) };
  return {
    scraper: new Scraper(
      { fetcher, renderer: noBrowser, extract, parsing, cache: new Keyv(), logger: silentLogger() },
      { concurrency: 1 },
    ),
    handed,
  };
}

describe('a fetched page decoded where it is extracted', () => {
  it('hands extraction the bytes, which it reads as windows-1252', async () => {
    const { scraper, handed } = reader();
    const page = await scraper.scrapeOne('https://cafe.example/prices', {});
    expect(page.success).toBe(true);
    expect(handed[0]).toMatchObject({ bytes: expect.any(Uint8Array), contentTypeHeader: 'text/html' });
    expect(page.title).toBe('Café prices');
    expect(page.text).toContain('“The flat white costs 3 €”, the owner said – and the crème brûlée 5 €.');
  });

  it('gets the markup the answer includes from extraction, decoded there, and none when it is not asked for', async () => {
    const { scraper, handed } = reader();
    const page = await scraper.scrapeOne('https://cafe.example/prices', { includeHtml: true });
    expect(handed[0]).toMatchObject({ bytes: expect.any(Uint8Array), contentTypeHeader: 'text/html' });
    expect(page.html).toBe(PAGE);
    expect(page.text).toContain('crème brûlée 5 €');
    expect((await scraper.scrapeOne('https://cafe.example/prices', {})).html).toBeUndefined();
  });
});
