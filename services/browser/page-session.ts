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
import { guardContext, type GuardedContextState, type UrlGuard } from './request-guard.js';

export interface PageSetup {
  guard: UrlGuard;
  blockedResourceTypes: ReadonlySet<string>;
  logger: Logger;
  userAgent?: string;
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

  constructor(private readonly setup: PageSetup) {
    // Every subresource the page loads at once waits on this signal while its address is checked
    // (each listener is removed when its check settles), so a page with many images legitimately
    // holds more than Node's default of 10; the warning would only be noise.
    setMaxListeners(0, this.ended.signal);
  }

  async open(browser: Browser): Promise<OpenedPage> {
    if (this.closing) throw new Error('the page was closed before it opened');
    this.context = browser.newContext({
      serviceWorkers: 'block', // their fetches would bypass context.route
      ...(this.setup.userAgent ? { userAgent: this.setup.userAgent } : {}),
    });
    const context = await this.context;
    const { guard, blockedResourceTypes, logger } = this.setup;
    const state = await guardContext(context, guard, blockedResourceTypes, logger, this.ended.signal);
    const page = await context.newPage();
    if (guard.checkNavigation) await guardNavigations(page, guard.checkNavigation.bind(guard), state, logger, this.ended.signal);
    return { page, state };
  }

  /** Asks once; settles when the context is closed or was never made. Closing it makes whatever awaits the page reject. */
  close(): Promise<void> {
    this.ended.abort();
    this.closing ??= (this.context ?? Promise.resolve(null)).then(
      (context) => context?.close().catch(() => undefined),
      () => undefined,
    );
    return this.closing;
  }
}
