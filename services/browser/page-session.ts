/**
 * One page in a browser context of its own: opened, guarded, closed. Closing
 * may be asked for before the context exists (a deadline that hits while
 * newContext is still pending); the context is then closed as soon as it
 * arrives, so none is left behind. Nothing here is bounded in time: a hung
 * browser leaves these promises pending, and the pool bounds the waiting.
 */
import { setMaxListeners } from 'node:events';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../../core/logger.js';
import { guardNavigations } from './navigation-guard.js';
import { guardContext, type ExtraHeaders, type GuardedContextState, type UrlGuard } from './request-guard.js';

export interface PageSetup {
  guard: UrlGuard;
  blockedResourceTypes: ReadonlySet<string>;
  logger: Logger;
  userAgent?: string;
}

/** What one page asks of its context beyond the pool's setup. */
export interface PageProfile {
  /** A phone: its viewport, touch, device scale and a mobile Chrome user agent. */
  mobile?: boolean;
  extraHeaders?: ExtraHeaders;
}

/**
 * A Pixel 7's screen as Chrome reports it (CSS pixels, device scale), the
 * phone profile for mobile reads; the user agent names the Chromium actually
 * running, as that phone's Chrome would.
 */
const PHONE = {
  viewport: { width: 412, height: 839 },
  screen: { width: 412, height: 915 },
  deviceScaleFactor: 2.625,
  isMobile: true,
  hasTouch: true,
};

function phoneUserAgent(chromiumVersion: string): string {
  return `Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chromiumVersion} Mobile Safari/537.36`;
}

/**
 * A caller's Cookie header goes into the context's cookie jar for the page's
 * host (Chromium sets the Cookie header itself and ignores one a request
 * interception sets; a cookie belongs to a host, every port of it, as in any
 * browser); the other headers are added to the page origin's requests only.
 */
function splitCookies(extra: ExtraHeaders | undefined): {
  cookies: Array<{ name: string; value: string; url: string }>;
  headers: ExtraHeaders | undefined;
} {
  if (!extra) return { cookies: [], headers: undefined };
  const cookieHeaders = Object.entries(extra.headers).filter(([name]) => name.toLowerCase() === 'cookie');
  if (cookieHeaders.length === 0) return { cookies: [], headers: extra };
  const cookies = cookieHeaders
    .flatMap(([, value]) => value.split(';'))
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes('='))
    .map((pair) => ({
      name: pair.slice(0, pair.indexOf('=')).trim(),
      value: pair.slice(pair.indexOf('=') + 1).trim(),
      url: extra.origin,
    }))
    .filter((cookie) => cookie.name.length > 0);
  const headers = Object.fromEntries(Object.entries(extra.headers).filter(([name]) => name.toLowerCase() !== 'cookie'));
  return { cookies, headers: Object.keys(headers).length > 0 ? { origin: extra.origin, headers } : undefined };
}

export interface OpenedPage {
  page: Page;
  state: GuardedContextState;
}

export class PageSession {
  private context: Promise<BrowserContext> | null = null;
  private closing: Promise<void> | null = null;
  /** Ends the route handlers' pending guard checks once the page is done. */
  private readonly ended = new AbortController();

  constructor(
    private readonly setup: PageSetup,
    private readonly profile: PageProfile = {},
  ) {
    // Every subresource the page loads at once waits on this signal while its address is checked
    // (each listener is removed when its check settles), so a page with many images legitimately
    // holds more than Node's default of 10; the warning would only be noise.
    setMaxListeners(0, this.ended.signal);
  }

  async open(browser: Browser): Promise<OpenedPage> {
    if (this.closing) throw new Error('the page was closed before it opened');
    const userAgent = this.profile.mobile ? phoneUserAgent(browser.version()) : this.setup.userAgent;
    this.context = browser.newContext({
      serviceWorkers: 'block', // their fetches would bypass context.route
      ...(userAgent ? { userAgent } : {}),
      ...(this.profile.mobile ? PHONE : {}),
    });
    const context = await this.context;
    const { guard, blockedResourceTypes, logger } = this.setup;
    const { cookies, headers } = splitCookies(this.profile.extraHeaders);
    if (cookies.length > 0) await context.addCookies(cookies);
    const state = await guardContext(context, guard, blockedResourceTypes, logger, this.ended.signal, headers);
    const page = await context.newPage();
    if (guard.checkNavigation)
      await guardNavigations(page, guard.checkNavigation.bind(guard), state, logger, this.ended.signal);
    return { page, state };
  }

  /**
   * Asks once; settles when the context is closed or was never made. Closing it makes whatever awaits the page reject.
   */
  close(): Promise<void> {
    this.ended.abort();
    this.closing ??= (this.context ?? Promise.resolve(null)).then(
      (context) => context?.close().catch(() => undefined),
      () => undefined,
    );
    return this.closing;
  }
}
