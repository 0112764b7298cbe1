/**
 * Getting one page's HTML: a plain fetch through the outbound policy (which
 * applies the address guard and robots.txt), or a render in the browser pool
 * (guarded by request interception; robots.txt is checked here first, since
 * the browser does not). Throws AppErrors; failures.ts classifies them.
 */
import type { BrowserPool, WaitUntil } from '../../../services/browser/browser-pool.js';
import { errorPageFailure } from '../../../services/scrape/rendered-page.js';
import { AppError } from '../../../core/errors.js';
import { RobotsCache } from '../../../core/http/robots-cache.js';
import type { OutboundRequest, OutboundResponse } from '../../../core/http/types.js';

export interface Fetched {
  html: string;
  finalUrl: string;
  status: number | null;
  rendered: boolean;
  screenshot?: Buffer;
  pdf?: Buffer;
}

export interface RenderWish {
  waitUntil: WaitUntil;
  screenshot: boolean;
  pdf: boolean;
}

/** What a plain fetch accepts as a page; like the Scraper, an empty type passes. */
const HTML_TYPES = /text\/html|application\/xhtml\+xml|text\/plain|^$/i;

export class PageFetcher {
  private readonly robots: RobotsCache;

  constructor(
    private readonly outbound: { fetch(request: OutboundRequest): Promise<OutboundResponse> },
    private readonly browser: BrowserPool | null,
    private readonly respectRobots: boolean,
  ) {
    this.robots = new RobotsCache(async (robotsUrl) => {
      const response = await outbound.fetch({ url: robotsUrl, purpose: 'robots', timeoutMs: 5000, retries: 0, maxBytes: 512 * 1024 });
      return { status: response.status, body: response.body };
    });
  }

  browserAvailable(): boolean {
    return this.browser?.available() ?? false;
  }

  async fetchStatic(url: string, timeoutMs: number, signal: AbortSignal): Promise<Fetched> {
    const response = await this.outbound.fetch({
      url,
      purpose: 'page',
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
      timeoutMs,
      signal,
    });
    const type = response.headers['content-type'] ?? '';
    if (response.status < 400 && !HTML_TYPES.test(type)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `unsupported content type ${type.split(';')[0]}`, { details: { url } });
    }
    return { html: response.body, finalUrl: response.url, status: response.status, rendered: false };
  }

  async render(url: string, wish: RenderWish, timeoutMs: number, signal: AbortSignal): Promise<Fetched> {
    if (!this.browser) throw new AppError('UNAVAILABLE', 'no browser pool on this installation');
    if (this.respectRobots && !(await this.robots.isAllowed(url, signal))) {
      throw new AppError('ROBOTS_DISALLOWED', `robots.txt of ${new URL(url).origin} disallows ${url} for Quarry`, { details: { url } });
    }
    const rendered = await this.browser.render(url, { waitUntil: wish.waitUntil, screenshot: wish.screenshot, pdf: wish.pdf, timeoutMs, signal });
    const failure = errorPageFailure(rendered, url);
    if (failure) throw failure;
    return { ...rendered, rendered: true };
  }
}
