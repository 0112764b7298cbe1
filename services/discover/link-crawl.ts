/**
 * The link phase: breadth-first from base_url over same-site links, up to
 * maxDepth hops, skipping what robots.txt disallows (asked as each page's
 * links are read, where waiting is allowed: a large rule set is matched in the
 * worker pool). Pages go through the outbound client (purpose 'page'), which
 * applies robots.txt and the address guard again; its refusals become error
 * entries for that URL only.
 */
import { AppError } from '../../core/errors.js';
import type { DiscoveryRun } from './discovery-run.js';
import { runInOrder } from './ordered-pool.js';
import { isAssetUrl, isHtml, mayHoldLinks, normaliseUrl, type SiteScope } from './site-urls.js';
import type { LinkParser } from './types.js';
import { bodyBytes } from '../extract/page-content.js';
import { MAX_URL_LENGTH } from './url-collector.js';

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

interface PageTask {
  url: URL;
  depth: number;
}

export interface LinkCrawlOptions {
  base: URL;
  scope: SiteScope;
  maxDepth: number;
  /** Which of urls robots.txt lets us take. */
  allowed: (urls: URL[], signal: AbortSignal) => Promise<boolean[]>;
  parseLinks: LinkParser;
}

export async function collectFromLinks(run: DiscoveryRun, options: LinkCrawlOptions): Promise<void> {
  const { base, scope, maxDepth, allowed, parseLinks } = options;
  if (!(await allowed([base], run.signal))[0]) {
    run.recordError(
      base.href,
      new AppError('ROBOTS_DISALLOWED', `robots.txt of ${base.origin} disallows ${base.href} for Quarry`),
    );
    return;
  }
  const seen = new Set<string>();
  const queue: PageTask[] = [];

  /** Reports a same-site link; queues it for fetching when its own links are still within maxDepth. */
  const visit = (url: URL, depth: number, fetchIt: boolean): void => {
    if (url.href.length > MAX_URL_LENGTH || seen.has(url.href) || !scope.contains(url) || isAssetUrl(url)) return;
    seen.add(url.href);
    run.collector.offer(url, 'link', { depth });
    if (fetchIt && depth < maxDepth && mayHoldLinks(url)) queue.push({ url, depth });
  };
  visit(base, 0, true);

  await runInOrder(queue, {
    concurrency: run.concurrency,
    shouldStop: () => run.done,
    work: async (task) => {
      const response = await run.fetch(task.url.href, 'page', PAGE_ACCEPT);
      const readable = response.status >= 200 && response.status < 300 && isHtml(response.headers['content-type']);
      // The page's bytes go to the parser's thread (and may move there): its text is decoded there, not here.
      const hrefs = readable ? await parseLinks(bodyBytes(response), response.url, run.signal) : [];
      // What robots.txt disallows never reaches commit: the page it redirected to, or a link.
      const found = [new URL(response.url), ...hrefs.map((href) => normaliseUrl(href)).filter((url) => url !== null)];
      const answers = await allowed(found, run.signal);
      const [landed, ...links] = found.map((url, i) => (answers[i] ? url : null));
      return { response, landed, links: links.filter((url) => url !== null) };
    },
    commit: (task, outcome) => {
      if (!outcome.ok) {
        run.recordError(task.url.href, outcome.error);
        return;
      }
      const { response, landed, links } = outcome.value;
      if (task.depth === 0) scope.acceptRedirectOf(response.url);
      if (response.status < 200 || response.status >= 300) {
        run.recordStatus(task.url.href, response.status);
        return;
      }
      // A redirect's target is a page of the site too (unless it left the site).
      if (landed && landed.href !== task.url.href) visit(landed, task.depth, false);
      if (!isHtml(response.headers['content-type']) || !scope.contains(new URL(response.url))) return;
      // The whole page is read even past maxUrls, so total_found counts all it links to.
      for (const link of links) visit(link, task.depth + 1, true);
      run.reportProgress();
    },
  });
}
