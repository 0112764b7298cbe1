/**
 * Getting one page's bytes, the only way any area does: a static fetch
 * through the outbound client (address guard and robots.txt on every hop),
 * or a render / virtual scroll in the browser pool once the same robots.txt
 * rules allow the page (the pool asks them again before each navigation the
 * page makes). Throws
 * AppErrors; page-failures.ts names them.
 */
import type {
  RenderRequest,
  RenderResult,
  ScrollCollectOptions,
  ScrollCollectResult,
} from '../browser/browser-pool.js';
import { errorPageFailure } from './rendered-page.js';
import { AppError } from '../../core/errors.js';
import type { OutboundRequest, OutboundResponse } from '../../core/http/types.js';

/** The outbound client as the reader uses it. */
export interface PageFetcher {
  fetch(request: OutboundRequest): Promise<OutboundResponse>;
  /** Throws ROBOTS_DISALLOWED when robots.txt (when respected) refuses the page. */
  checkRobots(url: string, signal?: AbortSignal): Promise<void>;
}

/** The browser pool as the reader uses it. */
export interface PageRenderer {
  available(): boolean;
  render(url: string, request: RenderRequest): Promise<RenderResult>;
  scrollAndCollect(url: string, options: ScrollCollectOptions): Promise<ScrollCollectResult>;
}

export const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.8,*/*;q=0.5';

export class PageSource {
  constructor(
    private readonly fetcher: PageFetcher,
    private readonly renderer: PageRenderer,
  ) {}

  renderAvailable(): boolean {
    return this.renderer.available();
  }

  /** headers (a caller's, already without hop-by-hop ones) go over the defaults. */
  fetch(
    url: string,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
    headers?: Record<string, string>,
  ): Promise<OutboundResponse> {
    const request: OutboundRequest = { url, purpose: 'page', headers: { accept: PAGE_ACCEPT, ...headers } };
    if (timeoutMs) request.timeoutMs = timeoutMs;
    if (signal) request.signal = signal;
    return this.fetcher.fetch(request);
  }

  async render(url: string, request: RenderRequest): Promise<RenderResult> {
    this.assertRenderer();
    await this.fetcher.checkRobots(url, request.signal);
    const rendered = await this.renderer.render(url, request);
    await this.checkNavigations(url, rendered, request.signal);
    const failure = errorPageFailure(rendered, url);
    if (failure) throw failure;
    return rendered;
  }

  async scroll(url: string, options: ScrollCollectOptions): Promise<ScrollCollectResult> {
    this.assertRenderer();
    await this.fetcher.checkRobots(url, options.signal);
    const scrolled = await this.renderer.scrollAndCollect(url, options);
    await this.checkNavigations(url, scrolled, options.signal);
    return scrolled;
  }

  /**
   * robots.txt for every page the browser went on to (redirect hops, script
   * navigations, the final URL), once more after the render: the browser pool
   * refuses disallowed ones before they are sent (navigation-guard.ts); this
   * keeps a renderer without that check from returning or caching one.
   */
  private async checkNavigations(
    url: string,
    page: { finalUrl: string; navigationUrls: string[] },
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const visited = new Set(
      [...page.navigationUrls, page.finalUrl].filter(
        (visitedUrl) => visitedUrl !== url && /^https?:/i.test(visitedUrl),
      ),
    );
    for (const visitedUrl of visited) await this.fetcher.checkRobots(visitedUrl, signal);
  }

  private assertRenderer(): void {
    if (!this.renderer.available()) throw new AppError('UNAVAILABLE', 'Chromium was not found on this installation');
  }
}
