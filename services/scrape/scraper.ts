/**
 * The page reader every area shares: fetch pages through the outbound policy,
 * or render them in the browser pool after robots.txt allows them
 * (page-source.ts), a bounded number at once, optionally through the page
 * cache, and extract them in the worker pool. Failures are per URL with
 * one set of codes (page-failures.ts) and never thrown; a deadline turns what
 * has not finished into TIMEOUT failures.
 */
import type { Keyv } from 'keyv';
import type { PageAction, PageActionOutcome, WaitUntil } from '../browser/browser-pool.js';
import type { ExtractionResult, ExtractOptions, PageContent } from '../extract/types.js';
import { cacheKey, cacheReads, cacheWrites, PageCache, type CacheMode } from './page-cache.js';
import {
  classifyFailure,
  extractionFailure,
  JAVASCRIPT_UNAVAILABLE_REASON,
  type PageErrorCode,
  type PageFailure,
} from './page-failures.js';
import { PageSource, type PageFetcher, type PageRenderer } from './page-source.js';
import { callerHeaders, checkPageActions, type FailedAction, type PageActionResults } from './page-actions.js';
import { isHtml } from '../discover/site-urls.js';
import { AppError, isAppError } from '../../core/errors.js';
import { bodyBytes } from '../extract/page-content.js';
import { emptyMetadata, failedExtraction } from '../extract/failed-result.js';
import type { Logger } from '../../core/logger.js';

export interface ScrapeOptions {
  /** Render with the browser pool (robots.txt is checked first, as for a fetch). */
  javascript?: boolean;
  /** Deadline for the whole batch. */
  timeoutMs: number;
  signal?: AbortSignal;
  extract?: ExtractOptions;
  /** Keep the fetched HTML on the result. */
  includeHtml?: boolean;
  /** When a rendered page counts as loaded; default load. */
  waitUntil?: WaitUntil;
  /** A PNG of the rendered page (base64 on the result). */
  screenshot?: boolean;
  /** The rendered page printed to PDF (base64 on the result). */
  pdf?: boolean;
  /**
   * Run in order on the rendered page before it is read (implies rendering; page-actions.ts). executeJavascript only
   * when the configuration allows it.
   */
  actions?: PageAction[];
  /** Render as a phone: its viewport, touch and user agent (implies rendering). */
  mobile?: boolean;
  /**
   * Sent with the page request (a render sends them with every request to the page's own origin); hop-by-hop and host
   * headers are dropped.
   */
  headers?: Record<string, string>;
  /** Milliseconds to wait after load before actions and capture (implies rendering). */
  waitFor?: number;
  /**
   * Use the page cache as the mode says; without it the cache is neither read nor written. With maxAgeMs,
   * a cached page read longer ago than that is not served (it is read again, and written as the mode says).
   */
  cache?: { mode: CacheMode; ttlSeconds: number; maxAgeMs?: number };
  /** Called as each page is done, in completion order (progress). */
  onPage?(page: ScrapedPage): void;
}

export interface ScrapedPage extends Omit<ExtractionResult, 'url'> {
  /** The URL asked for. */
  url: string;
  finalUrl: string;
  httpStatus: number | null;
  /** Everything spent on this page: fetch or render, and extraction. */
  extractionTimeMs: number;
  html?: string;
  /** Set when the page could not be read (success false). */
  errorCode?: PageErrorCode;
  /** Whether the browser produced the page. */
  rendered?: boolean;
  /** base64 PNG, when asked for. */
  screenshot?: string;
  /** What the page was read as (absent on a page that failed before it was fetched). */
  contentType?: 'text/html' | 'application/pdf';
  /** base64 PDF, when asked for. */
  pdf?: string;
  /** What the page actions produced, when the request had any. */
  actions?: PageActionResults;
  /** The action that could not be done (errorCode ACTION_FAILED). */
  failedAction?: FailedAction;
  fromCache?: boolean;
  /** ISO time the page was read (kept when served from the cache). */
  fetchedAt?: string;
  fetchMs?: number;
  extractMs?: number;
}

/**
 * Extraction in the worker pool: a rendered page's markup, or a fetched page's bytes (decoded there, and not read here
 * afterwards).
 */
export type ExtractFn = (
  content: PageContent,
  url: string,
  options: ExtractOptions,
  signal?: AbortSignal,
) => Promise<ExtractionResult>;

/** The worker pool's parses the reader needs besides extraction. */
export interface ReaderParsing {
  links(page: PageContent, url: string, signal?: AbortSignal): Promise<string[]>;
  mergeScroll(html: string, snapshots: string[], signal?: AbortSignal): Promise<string>;
}

export interface ReaderDeps {
  fetcher: PageFetcher;
  renderer: PageRenderer;
  extract: ExtractFn;
  parsing: ReaderParsing;
  cache: Keyv;
  logger: Logger;
}

export interface ScrollOptions {
  maxScrolls: number;
  scrollDelayMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ScrolledPage {
  /** The final HTML with the items a virtualised list dropped while scrolling folded back in. */
  html: string;
  snapshots: number;
  finalUrl: string;
}

interface Fetched {
  /** Rendered HTML, or the fetched body's bytes (HTML or PDF). */
  content: PageContent;
  contentType: 'text/html' | 'application/pdf';
  finalUrl: string;
  status: number | null;
  screenshot?: Buffer;
  pdf?: Buffer;
  actions?: PageActionOutcome;
}

const HTML_TYPES = /text\/html|application\/xhtml\+xml|text\/plain|^$/i;
const PDF_TYPE = /application\/(x-)?pdf/i;

/** A PDF by its media type, or by its signature when a server labels it generically. */
function isPdf(type: string, bytes: Uint8Array): boolean {
  if (PDF_TYPE.test(type)) return true;
  return (
    /application\/octet-stream|binary\//i.test(type) && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'
  );
}

export function failedPage(url: string, reason: string, errorCode: PageErrorCode, extractionTimeMs = 0): ScrapedPage {
  const { url: _url, ...nothingRead } = failedExtraction(url, '', emptyMetadata(), reason);
  return {
    url,
    finalUrl: url,
    httpStatus: null,
    ...nothingRead,
    extractionTimeMs,
    errorCode,
    fetchMs: extractionTimeMs,
    extractMs: 0,
  };
}

export class Scraper {
  private readonly source: PageSource;
  private readonly cache: PageCache<ScrapedPage>;

  constructor(
    private readonly deps: ReaderDeps,
    private readonly options: { concurrency: number; allowExecuteJavascript?: boolean },
  ) {
    this.source = new PageSource(deps.fetcher, deps.renderer);
    this.cache = new PageCache(deps.cache, deps.logger);
  }

  /** Whether rendering (javascript, screenshots, scrolling) is possible here. */
  renderAvailable(): boolean {
    return this.source.renderAvailable();
  }

  /**
   * Throws, before anything is read, when the request asks for what this
   * installation refuses: executeJavascript without browser.allowExecuteJavascript
   * (ACTION_NOT_ALLOWED), more than a minute of waiting (INVALID_INPUT).
   * scrapeMany and scrapeOne check it themselves; areas may call it first.
   */
  checkRequest(options: Pick<ScrapeOptions, 'actions' | 'waitFor'>): void {
    checkPageActions(options, { allowExecuteJavascript: this.options.allowExecuteJavascript ?? false });
  }

  /** Scrapes every URL; the answer has one entry per input URL, in order. Throws only what checkRequest throws. */
  async scrapeMany(urls: string[], options: ScrapeOptions): Promise<ScrapedPage[]> {
    this.checkRequest(options);
    if (urls.length === 0) return [];
    const results = new Map<string, ScrapedPage>();
    const deadline = new AbortController();
    const onCallerAbort = (): void => deadline.abort(new AppError('CANCELLED', 'cancelled'));
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(
      () => deadline.abort(new AppError('TIMEOUT', `not done within ${options.timeoutMs} ms`)),
      Math.max(1, options.timeoutMs),
    );
    const ended = new Promise<void>((resolve) =>
      deadline.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    const unique = [...new Set(urls)];
    let next = 0;
    // Lanes take the next URL as they free up: a slow page holds one lane, not the batch.
    const lane = async (): Promise<void> => {
      while (next < unique.length && !deadline.signal.aborted) {
        const url = unique[next++]!;
        const page = await this.scrapeOne(url, options, deadline.signal);
        if (deadline.signal.aborted) return;
        results.set(url, page);
        options.onPage?.(page);
      }
    };
    try {
      await Promise.race([
        Promise.all(Array.from({ length: Math.min(this.options.concurrency, unique.length) }, lane)),
        ended,
      ]);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
    const cancelled = options.signal?.aborted ?? false;
    return urls.map(
      (url) =>
        results.get(url) ??
        (cancelled
          ? failedPage(url, 'cancelled', 'CANCELLED')
          : failedPage(url, 'timeout', 'TIMEOUT', options.timeoutMs)),
    );
  }

  /**
   * Reads one page (cache, fetch or render, extraction); a page that cannot be read is a failed page, never thrown.
   * Throws only what checkRequest throws.
   */
  async scrapeOne(
    url: string,
    options: Omit<ScrapeOptions, 'timeoutMs'> & { timeoutMs?: number },
    signal?: AbortSignal,
  ): Promise<ScrapedPage> {
    this.checkRequest(options);
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const rendered = rendersPage(options);
    const key = options.cache
      ? cacheKey(normalisedUrl(url), [
          rendered,
          rendered ? (options.waitUntil ?? 'load') : null,
          !!options.screenshot,
          !!options.pdf,
          !!options.includeHtml,
          options.extract ?? {},
          ...pageExtras(options),
        ])
      : null;
    if (key && cacheReads(options.cache!.mode)) {
      const cached = await this.cache.read(key);
      if (cached && isFresh(cached, options.cache!.maxAgeMs))
        return { ...cached, url, fromCache: true, extractionTimeMs: elapsed(), fetchMs: 0, extractMs: 0 };
    }
    const fail = (failure: PageFailure, extra: Partial<ScrapedPage> = {}): ScrapedPage => ({
      ...failedPage(url, failure.reason, failure.code, elapsed()),
      rendered,
      ...(failure.action ? { failedAction: failure.action } : {}),
      ...extra,
    });
    if (signal?.aborted) return fail(failureOf(signal.reason, rendered, signal));
    if (rendered && !this.source.renderAvailable())
      return fail({ code: 'JAVASCRIPT_UNAVAILABLE', reason: JAVASCRIPT_UNAVAILABLE_REASON });

    let fetched: Fetched;
    try {
      fetched = await this.fetchPage(url, options, signal);
    } catch (error) {
      return fail(failureOf(error, rendered, signal));
    }
    const fetchMs = elapsed();
    if (fetched.status !== null && fetched.status >= 400) {
      return fail(
        { code: 'HTTP_ERROR', reason: `HTTP ${fetched.status}` },
        { httpStatus: fetched.status, finalUrl: fetched.finalUrl },
      );
    }
    let page: ScrapedPage;
    try {
      // Markup the answer includes comes back from the worker that decoded the fetched bytes.
      const keepMarkup =
        options.includeHtml === true && fetched.contentType === 'text/html' && typeof fetched.content !== 'string';
      const extracted = await this.deps.extract(
        fetched.content,
        fetched.finalUrl,
        { ...options.extract, contentType: fetched.contentType, ...(keepMarkup ? { keepMarkup } : {}) },
        signal,
      );
      const failure = extracted.success ? null : extractionFailure(extracted.failureReason);
      page = {
        ...extracted,
        url,
        finalUrl: fetched.finalUrl,
        httpStatus: fetched.status,
        contentType: fetched.contentType,
        extractionTimeMs: elapsed(),
        rendered,
        fetchMs,
        extractMs: elapsed() - fetchMs,
        fetchedAt: new Date().toISOString(),
      };
      if (failure) Object.assign(page, { errorCode: failure.code, failureReason: failure.reason });
    } catch (error) {
      return fail(failureOf(error, rendered, signal), { httpStatus: fetched.status, finalUrl: fetched.finalUrl });
    }
    if (options.includeHtml && typeof fetched.content === 'string') page.html = fetched.content;
    if (fetched.screenshot) page.screenshot = fetched.screenshot.toString('base64');
    if (fetched.pdf) page.pdf = fetched.pdf.toString('base64');
    if (fetched.actions)
      page.actions = {
        ...fetched.actions,
        screenshots: fetched.actions.screenshots.map((png) => png.toString('base64')),
      };
    if (key && page.success && cacheWrites(options.cache!.mode))
      await this.cache.write(key, page, options.cache!.ttlSeconds);
    return page;
  }

  /** A page's links (all of them, parsed in the worker pool), fetched without extraction; throws on failure. */
  async links(url: string, signal?: AbortSignal): Promise<{ finalUrl: string; links: string[] }> {
    const response = await this.source.fetch(url, undefined, signal);
    if (response.status < 200 || response.status >= 300)
      throw new AppError('UPSTREAM_FAILED', `HTTP ${response.status}`, { details: { url } });
    const links = isHtml(response.headers['content-type'])
      ? await this.deps.parsing.links(bodyBytes(response), response.url, signal)
      : [];
    return { finalUrl: response.url, links };
  }

  /**
   * Renders and scrolls a page, collecting what a virtualised list drops (merged in the worker pool); throws on
   * failure.
   */
  async scroll(url: string, options: ScrollOptions): Promise<ScrolledPage> {
    const scrolled = await this.source.scroll(url, options);
    const html = await this.deps.parsing.mergeScroll(scrolled.html, scrolled.snapshots, options.signal);
    return { html, snapshots: scrolled.snapshots.length, finalUrl: scrolled.finalUrl };
  }

  private async fetchPage(
    url: string,
    options: Omit<ScrapeOptions, 'timeoutMs'> & { timeoutMs?: number },
    signal: AbortSignal | undefined,
  ): Promise<Fetched> {
    const headers = callerHeaders(options.headers);
    if (rendersPage(options)) {
      const page = await this.source.render(url, {
        timeoutMs: options.timeoutMs ?? 30_000,
        waitUntil: options.waitUntil ?? 'load',
        screenshot: options.screenshot ?? false,
        pdf: options.pdf ?? false,
        ...(options.actions?.length ? { actions: options.actions } : {}),
        ...(options.mobile ? { mobile: true } : {}),
        ...(headers ? { headers } : {}),
        ...(options.waitFor ? { waitFor: options.waitFor } : {}),
        ...(signal ? { signal } : {}),
      });
      return {
        content: page.html,
        contentType: 'text/html',
        finalUrl: page.finalUrl,
        status: page.status,
        ...(page.screenshot ? { screenshot: page.screenshot } : {}),
        ...(page.pdf ? { pdf: page.pdf } : {}),
        ...(page.actions ? { actions: page.actions } : {}),
      };
    }
    const response = await this.source.fetch(url, options.timeoutMs, signal, headers);
    const type = response.headers['content-type'] ?? '';
    const fetched = { finalUrl: response.url, status: response.status };
    if (response.status >= 400) return { ...fetched, content: '', contentType: 'text/html' };
    // PDFs are read in the extraction worker too, from their bytes.
    if (isPdf(type, response.bytes))
      return { ...fetched, content: { bytes: response.bytes }, contentType: 'application/pdf' };
    if (!HTML_TYPES.test(type))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `unsupported content type ${type.split(';')[0]}`, {
        details: { url },
      });
    return { ...fetched, content: bodyBytes(response), contentType: 'text/html' };
  }
}

/** Actions, a phone profile and a wait after load need the browser, as javascript does. */
function rendersPage(options: Pick<ScrapeOptions, 'javascript' | 'actions' | 'mobile' | 'waitFor'>): boolean {
  return (
    options.javascript === true ||
    (options.actions?.length ?? 0) > 0 ||
    options.mobile === true ||
    (options.waitFor ?? 0) > 0
  );
}

/**
 * The page-changing options a request adds to its cache key; none for a request without them, whose key stays what it
 * was.
 */
function pageExtras(options: Pick<ScrapeOptions, 'actions' | 'mobile' | 'headers' | 'waitFor'>): unknown[] {
  const extras = {
    actions: options.actions ?? [],
    mobile: options.mobile ?? false,
    headers: callerHeaders(options.headers) ?? {},
    waitFor: options.waitFor ?? 0,
  };
  const plain =
    extras.actions.length === 0 && !extras.mobile && Object.keys(extras.headers).length === 0 && extras.waitFor === 0;
  return plain ? [] : [extras];
}

/**
 * Our own deadline is a TIMEOUT (reason "timeout", as search answers have always said) however a layer below reports it
 * (the outbound client calls a passed signal's abort "cancelled").
 */
function failureOf(error: unknown, rendered: boolean, signal: AbortSignal | undefined): PageFailure {
  const reason: unknown = signal?.aborted ? signal.reason : undefined;
  if (isAppError(reason) && reason.code === 'TIMEOUT') return { code: 'TIMEOUT', reason: 'timeout' };
  if (isAppError(reason) && reason.code === 'CANCELLED') return { code: 'CANCELLED', reason: 'cancelled' };
  return classifyFailure(error, rendered);
}

/** Whether a cached page was read within maxAgeMs (always, without a bound). */
function isFresh(page: ScrapedPage, maxAgeMs: number | undefined): boolean {
  if (maxAgeMs === undefined) return true;
  const readAt = page.fetchedAt ? Date.parse(page.fetchedAt) : Number.NaN;
  return Number.isFinite(readAt) && Date.now() - readAt <= maxAgeMs;
}

function normalisedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
