/**
 * One URL, start to end: cache lookup (as cache_mode allows), fetch or
 * render, extraction in the worker pool, cache write. Never throws: every
 * failure becomes a PageRecord with a code and reason.
 */
import type { ExtractFn } from '../../../services/scrape/scraper.js';
import { cacheKey, cacheReads, cacheWrites, type CacheMode, type FetchShape, type PageCache } from './cache.js';
import { classifyFailure, extractionFailure, JAVASCRIPT_UNAVAILABLE_REASON, type PageFailure } from './failures.js';
import type { Fetched, PageFetcher, RenderWish } from './fetch-page.js';
import { extractedRecord, failedRecord, type PageRecord } from './page-record.js';

export interface ScrapeDeps {
  fetcher: PageFetcher;
  extract: ExtractFn;
  cache: PageCache;
}

/** What applies to every URL of one request. */
export interface ScrapePlan {
  shape: FetchShape;
  wish: RenderWish;
  mode: CacheMode;
  ttlSeconds: number;
  /** Epoch ms by which every URL must be done. */
  deadline: number;
  /** The caller's signal (cancellation). */
  signal: AbortSignal;
}

export interface ScrapeOutcome {
  record: PageRecord;
  fromCache: boolean;
}

export async function scrapeOne(deps: ScrapeDeps, url: string, plan: ScrapePlan): Promise<ScrapeOutcome> {
  const started = performance.now();
  const since = (from: number): number => Math.round(performance.now() - from);
  const key = cacheKey(new URL(url).href, plan.shape);
  if (cacheReads(plan.mode)) {
    const cached = await deps.cache.read(key);
    if (cached) return { record: { ...cached, url, timing: { total_ms: since(started), fetch_ms: 0, extract_ms: 0 } }, fromCache: true };
  }
  const rendered = plan.shape.browser;
  const fail = (failure: PageFailure, extra: Partial<PageRecord> = {}): ScrapeOutcome => ({
    record: { ...failedRecord(url, failure, rendered, { total_ms: since(started), fetch_ms: since(started), extract_ms: 0 }), ...extra },
    fromCache: false,
  });

  const remaining = plan.deadline - Date.now();
  if (plan.signal.aborted) return fail({ code: 'CANCELLED', reason: 'cancelled' });
  if (remaining <= 0) return fail({ code: 'TIMEOUT', reason: 'timeout: the request deadline passed before this URL started' });
  if (rendered && !deps.fetcher.browserAvailable()) return fail({ code: 'JAVASCRIPT_UNAVAILABLE', reason: JAVASCRIPT_UNAVAILABLE_REASON });

  const deadlineSignal = AbortSignal.timeout(remaining);
  const signal = AbortSignal.any([plan.signal, deadlineSignal]);
  // Our own deadline, however a layer below reports it (outbound calls a passed signal's abort "cancelled").
  const failure = (error: unknown): PageFailure =>
    deadlineSignal.aborted && !plan.signal.aborted ? { code: 'TIMEOUT', reason: `timeout: not done within the request's ${Math.round(remaining)} ms` } : classifyFailure(error, rendered);

  let fetched: Fetched;
  try {
    fetched = rendered ? await deps.fetcher.render(url, plan.wish, remaining, signal) : await deps.fetcher.fetchStatic(url, remaining, signal);
  } catch (error) {
    return fail(failure(error));
  }
  const fetchMs = since(started);
  if (fetched.status !== null && fetched.status >= 400) {
    return fail({ code: 'HTTP_ERROR', reason: `HTTP ${fetched.status}` }, { status: fetched.status, finalUrl: fetched.finalUrl });
  }

  const extractStarted = performance.now();
  let record: PageRecord;
  try {
    const extracted = await deps.extract(fetched.html, fetched.finalUrl, { includeImages: true, includeLinks: true, markdown: true }, signal);
    const timing = { total_ms: since(started), fetch_ms: fetchMs, extract_ms: since(extractStarted) };
    record = extractedRecord(url, fetched, extracted, extracted.success ? null : extractionFailure(extracted.failureReason), timing);
  } catch (error) {
    return fail(failure(error), { status: fetched.status, finalUrl: fetched.finalUrl });
  }
  if (plan.shape.includeHtml) record.html = fetched.html;
  if (fetched.screenshot) record.screenshot = fetched.screenshot.toString('base64');
  if (fetched.pdf) record.pdf = fetched.pdf.toString('base64');
  if (record.success && cacheWrites(plan.mode)) await deps.cache.write(key, record, plan.ttlSeconds);
  return { record, fromCache: false };
}
