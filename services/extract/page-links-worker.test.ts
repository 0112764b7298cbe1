/**
 * A page's links read from extraction's own parse (options.pageLinks, what a crawl follows), through
 * the extraction worker's entry point called in-process: the same list the pool's links task
 * answers from a second parse, for real pages, a <base href>, fetched bytes, and a page extraction
 * refuses as content.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';
import run from '../../workers/extract.worker.js';
import { unwrap, type ParseOutcome } from './worker-tasks.js';

const PAGES = join(PACKAGE_ROOT, 'test/fixtures/sandbox/pages');
const page = (name: string): string => {
  const raw = readFileSync(join(PAGES, name));
  return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
};

async function linksTask(html: string, url: string): Promise<string[]> {
  return unwrap((await run({ kind: 'links', html, url })) as ParseOutcome<'links'>);
}

describe('page links from the extraction parse', () => {
  it.each(['wikipedia-microsoft.html', 'blog-llm-tuning-math.html', 'article-audi-etron-sportback.html.gz'])(
    'are the links task’s list for %s',
    async (name) => {
      const html = page(name);
      const url = 'https://example.org/docs/page';
      const extracted = run({ html, url, options: { pageLinks: true } });
      expect(extracted.success).toBe(true);
      const expected = await linksTask(html, url);
      expect(expected.length).toBeGreaterThan(10);
      expect(extracted.pageLinks).toEqual(expected);
    },
  );

  it('resolve against <base href>, from fetched bytes, and on a page that is no content', async () => {
    const html =
      '<html><head><base href="https://cdn.example.net/root/"></head><body>' +
      '<a href="a">A</a> <a href="/b#top">B</a> <a href="mailto:x@example.org">mail</a></body></html>';
    const bytes = new TextEncoder().encode(html);
    const extracted = run({
      bytes,
      contentTypeHeader: 'text/html',
      url: 'https://example.org/x',
      options: { pageLinks: true },
    });
    // Too little text to be a page's content: extraction fails it, and its links are still there to follow.
    expect(extracted.success).toBe(false);
    expect(extracted.pageLinks).toEqual(await linksTask(html, 'https://example.org/x'));
    expect(extracted.pageLinks).toContain('https://cdn.example.net/root/a');
  });

  it('are absent unless asked for', () => {
    expect(run({ html: page('blog-llm-tuning-math.html'), url: 'https://example.org/' }).pageLinks).toBeUndefined();
  });
});
