/**
 * The scraping pipeline shared by every area: fetch pages (crawlee drives
 * the queue and concurrency; every request goes through the outbound policy,
 * or the browser pool when JavaScript is wanted) and extract them in the
 * worker pool. Failures are per URL and never thrown; a deadline turns what
 * has not finished into failures with reason "timeout".
 */
import type { ExtractionResult, ExtractOptions } from '../extract/types.js';
import { errorPageFailure } from './rendered-page.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';
import type { Logger } from '../../core/logger.js';

export interface ScrapeOptions {
  /** Render with the browser pool. */
  javascript?: boolean;
  /** Deadline for the whole batch. */
  timeoutMs: number;
  signal?: AbortSignal;
  extract?: ExtractOptions;
  /** Keep the fetched HTML on the result. */
  includeHtml?: boolean;
  waitUntil?: 'load' | 'domcontentloaded' | 'networkidle';
}

export interface ScrapedPage extends Omit<ExtractionResult, 'url'> {
  /** The URL asked for. */
  url: string;
  finalUrl: string;
  httpStatus: number | null;
  extractionTimeMs: number;
  html?: string;
  /** Stable error code when the page could not be fetched or extracted. */
  errorCode?: string;
}

export interface PageFetcher {
  fetch(request: OutboundRequest): Promise<OutboundResponse>;
}

export interface PageRenderer {
  available(): boolean;
  renderHtml(
    url: string,
    opts: { waitUntil?: 'load' | 'domcontentloaded' | 'networkidle'; timeoutMs: number; signal?: AbortSignal },
  ): Promise<{ html: string; finalUrl: string; status: number | null }>;
}

export type ExtractFn = (html: string, url: string, options: ExtractOptions, signal?: AbortSignal) => Promise<ExtractionResult>;

const HTML_TYPES = /text\/html|application\/xhtml\+xml|text\/plain|^$/i;
const PDF_TYPE = /application\/(x-)?pdf/i;

/** A PDF by its media type, or by its signature when a server labels it generically. */
function isPdf(type: string, bytes: Uint8Array): boolean {
  if (PDF_TYPE.test(type)) return true;
  return /application\/octet-stream|binary\//i.test(type) && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

type CrawleeModule = typeof import('crawlee');
let crawleePromise: Promise<CrawleeModule> | null = null;

/** crawlee is heavy to import; load it on first use and keep its logger off stdout. */
function loadCrawlee(): Promise<CrawleeModule> {
  crawleePromise ??= import('crawlee').then((module) => {
    // crawlee's logger writes INFO and DEBUG with console.log (stdout, which carries MCP);
    // WARNING and above go to stderr.
    module.log.setLevel(module.log.LEVELS.WARNING);
    return module;
  });
  return crawleePromise;
}

export function failedPage(url: string, reason: string, errorCode: string, extractionTimeMs = 0): ScrapedPage {
  return {
    url,
    finalUrl: url,
    httpStatus: null,
    title: '',
    text: '',
    markdown: '',
    metadata: {
      title: null,
      description: null,
      author: null,
      publishedDate: null,
      keywords: [],
      siteName: null,
      language: null,
      canonicalUrl: null,
      openGraph: {},
    },
    images: [],
    links: [],
    wordCount: 0,
    contentQualityScore: 0,
    success: false,
    failureReason: reason,
    extractionTimeMs,
    errorCode,
  };
}

export class Scraper {
  constructor(
    private readonly fetcher: PageFetcher,
    private readonly extract: ExtractFn,
    private readonly renderer: PageRenderer,
    private readonly logger: Logger,
    private readonly options: { concurrency: number },
  ) {}

  /** Scrapes every URL; the answer has one entry per input URL, in order. */
  async scrapeMany(urls: string[], options: ScrapeOptions): Promise<ScrapedPage[]> {
    if (urls.length === 0) return [];
    if (options.javascript && !this.renderer.available()) {
      return urls.map((url) => failedPage(url, 'javascript rendering unavailable: Chromium was not found', 'UNAVAILABLE'));
    }
    const results = new Map<string, ScrapedPage>();
    const deadline = new AbortController();
    const onCallerAbort = (): void => deadline.abort(new AppError('CANCELLED', 'cancelled'));
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => deadline.abort(new AppError('TIMEOUT', 'timeout')), Math.max(1, options.timeoutMs));
    const unique = [...new Set(urls)];

    try {
      const { BasicCrawler, Configuration } = await loadCrawlee();
      const crawler = new BasicCrawler(
        {
          maxConcurrency: Math.min(this.options.concurrency, unique.length),
          maxRequestRetries: 0,
          requestHandlerTimeoutSecs: Math.ceil(options.timeoutMs / 1000) + 1,
          useSessionPool: false,
          statusMessageLoggingInterval: 3600,
          requestHandler: async ({ request }) => {
            const url = request.userData.original as string;
            if (deadline.signal.aborted) return;
            results.set(url, await this.scrapeOne(url, options, deadline.signal));
          },
          failedRequestHandler: async ({ request }, error) => {
            const url = request.userData.original as string;
            const appError = toAppError(error);
            results.set(url, failedPage(url, appError.message, appError.code));
          },
        },
        new Configuration({ persistStorage: false, purgeOnStart: true }),
      );
      const run = crawler.run(unique.map((url, index) => ({ url: safeCrawleeUrl(url), uniqueKey: `${index}:${url}`, userData: { original: url } })));
      await Promise.race([
        run,
        new Promise<void>((resolve) => deadline.signal.addEventListener('abort', () => resolve(), { once: true })),
      ]);
      if (deadline.signal.aborted) {
        // Stop the crawler in the background; unfinished pages are reported as timeouts below.
        void crawler.autoscaledPool?.abort().catch(() => undefined);
        run.catch(() => undefined);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'scrape batch failed');
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
    const cancelled = options.signal?.aborted ?? false;
    return urls.map(
      (url) =>
        results.get(url) ??
        (cancelled ? failedPage(url, 'cancelled', 'CANCELLED') : failedPage(url, 'timeout', 'TIMEOUT', options.timeoutMs)),
    );
  }

  /** Fetches (or renders) and extracts one page; never throws. */
  async scrapeOne(url: string, options: Omit<ScrapeOptions, 'timeoutMs'> & { timeoutMs?: number }, signal?: AbortSignal): Promise<ScrapedPage> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    try {
      let html: string;
      let finalUrl: string;
      let status: number | null;
      if (options.javascript) {
        const rendered = await this.renderer.renderHtml(url, {
          timeoutMs: options.timeoutMs ?? 30_000,
          ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
          ...(signal ? { signal } : {}),
        });
        const failure = errorPageFailure(rendered, url);
        if (failure) throw failure;
        ({ html, finalUrl, status } = rendered);
      } else {
        const request: OutboundRequest = { url, purpose: 'page', headers: { accept: 'text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.8,*/*;q=0.5' } };
        if (options.timeoutMs) request.timeoutMs = options.timeoutMs;
        if (signal) request.signal = signal;
        const response = await this.fetcher.fetch(request);
        finalUrl = response.url;
        status = response.status;
        if (response.status >= 400) {
          const page = failedPage(url, `HTTP ${response.status}`, 'UPSTREAM_FAILED', elapsed());
          page.httpStatus = response.status;
          page.finalUrl = finalUrl;
          return page;
        }
        const type = response.headers['content-type'] ?? '';
        if (isPdf(type, response.bytes)) {
          // PDFs are read in the extraction worker too; the bytes travel as base64 in the content string.
          const pdfOptions: ExtractOptions = { ...options.extract, contentType: 'application/pdf' };
          const extracted = await this.extract(Buffer.from(response.bytes).toString('base64'), finalUrl, pdfOptions, signal);
          return { ...extracted, url, finalUrl, httpStatus: status, extractionTimeMs: elapsed() };
        }
        if (!HTML_TYPES.test(type)) {
          const page = failedPage(url, `unsupported content type ${type.split(';')[0]}`, 'UNSUPPORTED_MEDIA_TYPE', elapsed());
          page.httpStatus = response.status;
          return page;
        }
        html = response.body;
      }
      const extracted = await this.extract(html, finalUrl, options.extract ?? {}, signal);
      const page: ScrapedPage = { ...extracted, url, finalUrl, httpStatus: status, extractionTimeMs: elapsed() };
      if (options.includeHtml) page.html = html;
      return page;
    } catch (error) {
      const appError = toAppError(error);
      const reason = appError.code === 'TIMEOUT' ? 'timeout' : appError.message;
      return failedPage(url, reason, appError.code, elapsed());
    }
  }
}

/** crawlee validates request URLs; ours are validated by the outbound policy instead. */
function safeCrawleeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return 'http://invalid.invalid/';
  }
}
