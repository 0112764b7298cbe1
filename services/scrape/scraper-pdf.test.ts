/**
 * PDFs through the scraper: a real PDF, written here byte by byte (two pages,
 * an Info dictionary), served by the sandbox web as application/pdf, fetched
 * by the Scraper and read by the extraction worker's entry point.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxWeb, type SandboxWeb } from '../../test/sandbox/sandbox-web.js';
import run from '../../workers/extract.worker.js';
import { silentLogger } from '../../core/logger.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import type { ExtractOptions, PageContent } from '../extract/types.js';
import { Keyv } from 'keyv';
import type { PageRenderer } from './page-source.js';
import { Scraper } from './scraper.js';

/** A minimal PDF 1.4: one Helvetica text line per page, with a correct cross-reference table. */
function makePdf(pages: string[], info: Record<string, string>): Buffer {
  const escapePdfText = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((line, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${escapePdfText(line)}) Tj ET`;
    objects[4 + i * 2] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
    objects[5 + i * 2] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  const infoId = objects.length;
  objects[infoId] = `<< ${Object.entries(info)
    .map(([key, value]) => `/${key} (${escapePdfText(value)})`)
    .join(' ')} >>`;
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = body.length;
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The scraper's fetcher over plain fetch: the sandbox is on loopback, which the outbound policy would refuse. */
const fetcher = {
  async fetch(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const response = await fetch(request.url, { headers: request.headers ?? {} });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: Buffer.from(bytes).toString('utf8'),
      bytes,
      url: response.url,
      elapsedMs: performance.now() - started,
    };
  },
  checkRobots: async () => undefined,
};

const noBrowser: PageRenderer = {
  available: () => false,
  render: () => Promise.reject(new Error('no browser in this test')),
  scrollAndCollect: () => Promise.reject(new Error('no browser in this test')),
};

describe('scraping PDF documents', () => {
  let web: SandboxWeb;
  let scraper: Scraper;
  const first = 'Sourdough starters need regular feeding with flour and water to stay active.';
  const second = 'A hydration of one hundred percent means equal weights of flour and water.';

  beforeAll(async () => {
    web = await startSandboxWeb();
    // The worker's entry point, called in-process: the same code the pool runs.
    const extract = async (content: PageContent, url: string, options: ExtractOptions) =>
      run(typeof content === 'string' ? { html: content, url, options } : { ...content, url, options });
    const parsing = { links: () => Promise.resolve([]), mergeScroll: (html: string) => Promise.resolve(html) };
    scraper = new Scraper(
      { fetcher, renderer: noBrowser, extract, parsing, cache: new Keyv(), logger: silentLogger() },
      { concurrency: 2 },
    );
  });
  afterAll(() => web.close());

  it('extracts the text, title, page count, word count and a quality score', async () => {
    const pdf = makePdf([first, second], {
      Title: 'Starter care guide',
      Author: 'Ada Baker',
      CreationDate: 'D:20240131120000Z',
    });
    const url = web.addFile('/docs/starter.pdf', pdf, 'application/pdf');
    const page = await scraper.scrapeOne(url, {});
    expect(page.success).toBe(true);
    expect(page.errorCode).toBeUndefined();
    expect(page.httpStatus).toBe(200);
    expect(page.title).toBe('Starter care guide');
    expect(page.text).toBe(`${first}\n\n${second}`);
    expect(page.markdown).toBe(page.text);
    expect(page.wordCount).toBe(25);
    expect(page.metadata.author).toBe('Ada Baker');
    expect(page.metadata.publishedDate).toBe('2024-01-31T12:00:00.000Z');
    expect(page.metadata.openGraph['pdf:pages']).toBe('2');
    expect(page.contentQualityScore).toBeGreaterThan(0.2);
    expect(page.contentQualityScore).toBeLessThan(1);
  });

  it('recognises a PDF served as application/octet-stream and names an untitled one after its file', async () => {
    const url = web.addFile('/files/minutes%20of%20meeting.pdf', makePdf([first], {}), 'application/octet-stream');
    const page = await scraper.scrapeOne(url, {});
    expect(page.success).toBe(true);
    expect(page.title).toBe('minutes of meeting');
    expect(page.text).toBe(first);
  });

  it('reports a broken PDF as a failed extraction, not a crash', async () => {
    const url = web.addFile('/docs/broken.pdf', Buffer.from('%PDF-1.4\nthis is not a pdf'), 'application/pdf');
    const page = await scraper.scrapeOne(url, {});
    expect(page.success).toBe(false);
    expect(page.failureReason).toBe('extraction_error');
  });

  it('still refuses other binary types', async () => {
    const url = web.addFile('/img/photo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    const page = await scraper.scrapeOne(url, {});
    expect(page.errorCode).toBe('UNSUPPORTED_CONTENT_TYPE');
  });
});
