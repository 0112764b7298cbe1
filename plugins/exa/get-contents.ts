/**
 * POST /api/v1/exa/contents: read the given URLs (ids are URLs here) and
 * return their contents. A page that cannot be read is left out of results
 * and reported in statuses with Exa's error tags; the call still succeeds.
 */
import type { ExaServices } from './uses.js';
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import type { ScrapedPage } from '../../services/scrape/scraper.js';
import { requestId, withContents, withDefaultText } from './contents.js';
import type { ExaContentsInput, exaContentsOutputSchema } from './schemas.js';

type Output = z.infer<typeof exaContentsOutputSchema>;

const TIMEOUT_MS = 30_000;

function errorTag(page: ScrapedPage): string {
  if (page.httpStatus === 404 || page.httpStatus === 410) return 'CRAWL_NOT_FOUND';
  if (page.errorCode === 'TIMEOUT') return 'CRAWL_TIMEOUT';
  if (page.errorCode === 'FORBIDDEN_ADDRESS' || page.errorCode === 'ROBOTS_DISALLOWED') return 'SOURCE_NOT_AVAILABLE';
  return 'CRAWL_UNKNOWN_ERROR';
}

export async function exaContents(services: ExaServices, input: ExaContentsInput, ctx: CallContext): Promise<Output> {
  const urls = [...new Set([...(input.urls ?? []), ...(input.ids ?? [])])];
  ctx.progress({ progress: 0, total: urls.length, message: `reading ${urls.length} pages` });
  const pages = await services.scraper.scrapeMany(urls, {
    timeoutMs: TIMEOUT_MS,
    signal: ctx.signal,
    extract: { markdown: false, includeImages: false, includeLinks: false },
  });
  const read = pages.filter((p) => p.success);
  const statuses: Output['statuses'] = pages.map((p) =>
    p.success
      ? { id: p.url, status: 'success', source: 'crawled' }
      : {
          id: p.url,
          status: 'error',
          source: 'crawled',
          error: {
            tag: errorTag(p),
            httpStatusCode: p.httpStatus,
            message: p.failureReason ?? 'the page could not be read',
          },
        },
  );
  const results = await withContents(
    services,
    read.map((p) => ({
      url: p.url,
      title: p.title,
      text: p.text,
      publishedDate: p.metadata.publishedDate,
      author: p.metadata.author,
      score: 1,
    })),
    '',
    withDefaultText(input),
    ctx,
  );
  return { requestId: requestId(), results, statuses, costDollars: { total: 0 } };
}
