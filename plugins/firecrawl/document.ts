/**
 * A page read by the one reader, as Firecrawl's Document: the formats asked
 * for, and `metadata` with the page's own fields (title, description,
 * language, og*) and the request's (sourceURL, url, statusCode, contentType,
 * cacheState, scrapeId). A page the site answered with an error status, or
 * that holds no readable content, is still a Document (as Firecrawl answers
 * it, status in metadata, the reason in `error` and `warning`); a page that
 * could not be read at all is a typed error (pageError).
 */
import { AppError, type ErrorCode } from '../../core/errors.js';
import type { PageErrorCode } from '../../services/scrape/page-failures.js';
import type { ScrapedPage } from '../../services/scrape/scraper.js';
import type { FormatPlan } from './formats.js';
import type { FirecrawlDocument } from './scrape-schema.js';

/** Failures that still answer a Document: the site was read, and said no or had nothing. */
const READ_BUT_EMPTY = new Set<PageErrorCode | undefined>(['HTTP_ERROR', 'EMPTY_CONTENT', 'BLOCKED']);

const ERROR_OF_FAILURE: Record<PageErrorCode, ErrorCode> = {
  FORBIDDEN_ADDRESS: 'FORBIDDEN_ADDRESS',
  ROBOTS_DISALLOWED: 'ROBOTS_DISALLOWED',
  UNREACHABLE: 'UNREACHABLE',
  TIMEOUT: 'TIMEOUT',
  HTTP_ERROR: 'UPSTREAM_FAILED',
  BLOCKED: 'UPSTREAM_FAILED',
  EMPTY_CONTENT: 'UPSTREAM_FAILED',
  UNSUPPORTED_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  JAVASCRIPT_UNAVAILABLE: 'UNAVAILABLE',
  RENDER_FAILED: 'UPSTREAM_FAILED',
  FETCH_FAILED: 'UPSTREAM_FAILED',
  CANCELLED: 'CANCELLED',
  ACTION_FAILED: 'ACTION_FAILED',
  // Our extractor broke on the page: not the site's doing, so not an upstream failure.
  EXTRACTION_FAILED: 'INTERNAL',
  INTERNAL: 'INTERNAL',
};

/** Whether the page becomes a Document (else pageError says why not). */
export function isDocumentPage(page: ScrapedPage): boolean {
  return page.success || READ_BUT_EMPTY.has(page.errorCode);
}

export function pageError(page: ScrapedPage): AppError {
  const code = page.errorCode ?? 'INTERNAL';
  return new AppError(ERROR_OF_FAILURE[code], `${page.url}: ${page.failureReason ?? code}`, {
    details: { url: page.url, pageError: code },
  });
}

/** `links` are the page's links when its markup was parsed for them; else the main content's. */
export function toDocument(
  page: ScrapedPage,
  plan: FormatPlan,
  scrapeId: string,
  warnings: string[] = [],
  links?: string[],
): FirecrawlDocument {
  const document: FirecrawlDocument = { metadata: metadataOf(page, scrapeId) };
  if (plan.markdown) document.markdown = page.markdown;
  if (plan.rawHtml) document.rawHtml = page.html ?? '';
  if (plan.links) document.links = [...new Set(links ?? page.links.map((link) => link.url))];
  if (plan.images) document.images = [...new Set(page.images)];
  if (plan.screenshot && page.screenshot) document.screenshot = `data:image/png;base64,${page.screenshot}`;
  if (page.actions)
    document.actions = {
      ...page.actions,
      screenshots: page.actions.screenshots.map((png) => `data:image/png;base64,${png}`),
    };
  const notes = [...warnings];
  if (!page.success) notes.push(`the page could not be read in full: ${page.failureReason ?? page.errorCode}`);
  if (plan.unsupported.length > 0) notes.push(`formats not produced by this server: ${plan.unsupported.join(', ')}`);
  if (notes.length > 0) document.warning = notes.join('; ');
  return document;
}

/** Firecrawl's og* names for the OpenGraph properties the extractor reads (lower-cased, prefix dropped). */
const OG_NAMES: Record<string, string> = {
  title: 'ogTitle',
  description: 'ogDescription',
  url: 'ogUrl',
  image: 'ogImage',
  audio: 'ogAudio',
  video: 'ogVideo',
  determiner: 'ogDeterminer',
  locale: 'ogLocale',
  site_name: 'ogSiteName',
};

function metadataOf(page: ScrapedPage, scrapeId: string): FirecrawlDocument['metadata'] {
  const { metadata } = page;
  const og: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata.openGraph)) {
    const key = OG_NAMES[name];
    if (key) og[key] = value;
  }
  return {
    ...(metadata.title || page.title ? { title: metadata.title ?? page.title } : {}),
    ...(metadata.description ? { description: metadata.description } : {}),
    ...(metadata.language ? { language: metadata.language } : {}),
    ...(metadata.keywords.length > 0 ? { keywords: metadata.keywords.join(', ') } : {}),
    ...(metadata.author ? { author: metadata.author } : {}),
    ...(metadata.publishedDate ? { publishedTime: metadata.publishedDate } : {}),
    ...(metadata.canonicalUrl ? { canonicalUrl: metadata.canonicalUrl } : {}),
    ...(page.media?.favicon ? { favicon: page.media.favicon } : {}),
    ...og,
    sourceURL: page.url,
    url: page.finalUrl,
    statusCode: page.httpStatus ?? (page.success ? 200 : 0),
    ...(page.contentType ? { contentType: page.contentType } : {}),
    scrapeId,
    cacheState: page.fromCache ? 'hit' : 'miss',
    ...(page.fromCache && page.fetchedAt ? { cachedAt: page.fetchedAt } : {}),
    proxyUsed: 'basic',
    creditsUsed: 1,
    ...(page.success ? {} : { error: page.failureReason ?? page.errorCode ?? 'not read' }),
  };
}
