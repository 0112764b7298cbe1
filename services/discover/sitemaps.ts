/**
 * The sitemap phase: reads robots.txt's sitemaps (or the usual
 * /sitemap.xml and /sitemap_index.xml), follows sitemap indexes a bounded
 * number of levels, and offers every listed URL with its lastmod.
 */
import { AppError } from '../../core/errors.js';
import type { DiscoveryRun } from './discovery-run.js';
import { sitemapBytes } from './sitemap-body.js';
import { normaliseUrl } from './site-urls.js';
import { runInOrder } from './ordered-pool.js';
import type { SitemapReader } from './types.js';

/** Index → index → index → sitemap, and no deeper. */
export const MAX_SITEMAP_NESTING = 3;
/** Sitemap documents read per discovery, indexes included. */
export const MAX_SITEMAP_DOCUMENTS = 50;
const GUESSED_SITEMAP_PATHS = ['/sitemap.xml', '/sitemap_index.xml'];
const SITEMAP_ACCEPT = 'application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.1';

interface SitemapTask {
  url: string;
  nesting: number;
  /** Not announced anywhere, only guessed: a 4xx or a non-sitemap answer is silence, not an error. */
  guessed: boolean;
}

/** Returns the sitemap documents read, in order. */
export async function collectFromSitemaps(
  run: DiscoveryRun,
  origin: string,
  announced: string[],
  readSitemap: SitemapReader,
): Promise<string[]> {
  const queue: SitemapTask[] =
    announced.length > 0
      ? announced.map((url) => ({ url, nesting: 0, guessed: false }))
      : GUESSED_SITEMAP_PATHS.map((path) => ({ url: origin + path, nesting: 0, guessed: true }));
  const queued = new Set(queue.map((task) => task.url));
  const read: string[] = [];

  await runInOrder(queue, {
    concurrency: run.concurrency,
    shouldStop: () => run.done,
    work: async (task) => {
      const response = await run.fetch(task.url, 'page', SITEMAP_ACCEPT);
      if (response.status < 200 || response.status >= 300) return { status: response.status, document: null };
      return { status: response.status, document: await readSitemap(await sitemapBytes(response), run.signal) };
    },
    commit: (task, outcome) => {
      if (!outcome.ok) {
        run.recordError(task.url, outcome.error);
        return;
      }
      const { status, document } = outcome.value;
      if (status < 200 || status >= 300) {
        if (!task.guessed || status >= 500) run.recordStatus(task.url, status);
        return;
      }
      if (!document) {
        if (!task.guessed)
          run.recordError(
            task.url,
            new AppError(
              'UPSTREAM_FAILED',
              `${task.url} is not a sitemap (no <urlset>, <sitemapindex> or list of URLs)`,
            ),
          );
        return;
      }
      read.push(task.url);
      for (const entry of document.entries) {
        const url = normaliseUrl(entry.loc);
        if (!url) continue;
        if (document.kind === 'urlset') {
          run.collector.offer(url, 'sitemap', entry.lastmod !== undefined ? { lastmod: entry.lastmod } : {});
        } else if (task.nesting < MAX_SITEMAP_NESTING && queued.size < MAX_SITEMAP_DOCUMENTS && !queued.has(url.href)) {
          queued.add(url.href);
          queue.push({ url: url.href, nesting: task.nesting + 1, guessed: false });
        }
      }
      run.reportProgress();
    },
  });
  return read;
}
