/** State shared by the phases of one discovery: fetching, limits, results, errors, progress. */
import { AppError, toAppError } from '../../core/errors.js';
import type { RobotsTxt } from '../../core/http/robots-cache.js';
import type { OutboundPurpose, OutboundResponse } from '../../core/http/types.js';
import type { UrlCollector } from './url-collector.js';
import type { DiscoveryError, DiscoveryFetcher, ProgressListener } from './types.js';

export class DiscoveryRun {
  readonly errors: DiscoveryError[] = [];
  private fetched = 0;

  constructor(
    private readonly fetcher: DiscoveryFetcher,
    readonly collector: UrlCollector,
    readonly concurrency: number,
    /** Aborts on the caller's cancel, the time budget, or the end of the run. */
    readonly signal: AbortSignal,
    private readonly onProgress: ProgressListener | undefined,
  ) {}

  /** True once nothing more should be fetched: enough URLs, or the run was stopped. */
  get done(): boolean {
    return this.collector.truncated || this.signal.aborted;
  }

  /** signal: one that also ends with this run (a crawl's own), by default the run's. */
  async fetch(url: string, purpose: OutboundPurpose, accept: string, signal = this.signal): Promise<OutboundResponse> {
    const response = await this.fetcher.fetch({ url, purpose, headers: { accept }, signal });
    this.countFetched();
    return response;
  }

  /**
   * The site's robots.txt from the outbound client's cache (fetched there at most once per origin), counted as a
   * document read.
   */
  async robotsTxt(robotsUrl: string): Promise<RobotsTxt> {
    const robots = await this.fetcher.robotsTxt(robotsUrl, this.signal);
    this.countFetched();
    return robots;
  }

  private countFetched(): void {
    this.fetched++;
    this.reportProgress();
  }

  /** Records a failure for one URL; nothing is recorded once the run is stopping (its errors are just the abort). */
  recordError(url: string, error: unknown): void {
    if (this.signal.aborted) return;
    const appError = toAppError(error);
    this.errors.push({ url, code: appError.code, message: appError.message });
  }

  /** Records a failure already described by its code (one the crawl lists for a URL). */
  recordFailure(url: string, failure: { code: string; message: string }): void {
    if (!this.signal.aborted) this.errors.push({ url, code: failure.code, message: failure.message });
  }

  recordStatus(url: string, status: number): void {
    this.recordError(url, new AppError('UPSTREAM_FAILED', `${url} answered HTTP ${status}`));
  }

  reportProgress(): void {
    this.onProgress?.({ found: this.collector.urls.length, fetched: this.fetched });
  }
}
