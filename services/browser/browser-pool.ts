/**
 * A lazily launched headless Chromium shared by all page renders: one browser,
 * a fresh context per page (closed after use), a bound on concurrent pages,
 * and a relaunch after recycleAfterPages pages or when the browser dies.
 * Every request a page makes is checked by the outbound guard: when it starts
 * (context.route) and when it connects (GuardingProxy, which sees redirects).
 */
import { chromium, errors as playwrightErrors, type Browser, type Page } from 'playwright-core';
import { AppError, isAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { Semaphore } from '../../core/http/semaphore.js';
import { CHROMIUM_MISSING_HINT, findChromium } from './find-chromium.js';
import { GuardingProxy } from './guarding-proxy.js';
import { trackNetwork, type NetworkTracker } from './network-idle.js';
import { capture, navigateAndWait, type CaptureRequest, type WaitUntil } from './page-render.js';
import { collectByScrolling, type ScrollCollectOptions, type ScrollCollectResult } from './scroll-collect.js';
import { guardContext, type GuardedContextState, type UrlGuard } from './request-guard.js';

/** From notes/dependencies.md: what Debian's Chromium needs to run headless here (as root, in containers). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Fonts and media cost time and never change the HTML; images stay (screenshots need them). */
const DEFAULT_BLOCKED_RESOURCE_TYPES = ['font', 'media'];

export interface BrowserPoolOptions {
  executablePath?: string;
  maxConcurrentPages: number;
  recycleAfterPages: number;
  launchTimeoutMs?: number;
  /** Playwright resource types aborted before they are requested (default: font, media). */
  blockedResourceTypes?: string[];
  /** User agent for pages; Chromium's own when unset. */
  userAgent?: string;
}

export type { WaitUntil } from './page-render.js';
export type { ScrollCollectOptions, ScrollCollectResult } from './scroll-collect.js';

export interface RenderOptions {
  /** Default "load". networkidle0/networkidle2 are Puppeteer's: at most 0/2 open requests for 500 ms after load. */
  waitUntil?: WaitUntil;
  /** Covers everything: waiting for a page slot, the launch, navigation, waiting and captures. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RenderedPage {
  html: string;
  finalUrl: string;
  status: number | null;
}

export interface RenderRequest extends RenderOptions, CaptureRequest {}

export interface RenderResult extends RenderedPage {
  /** PNG of the page (full page, cut at MAX_SCREENSHOT_HEIGHT px), when asked for. */
  screenshot?: Buffer;
  /** The page printed to PDF (A4, backgrounds on), when asked for. */
  pdf?: Buffer;
}

/** What a navigation hands to the work done on the page after it. */
interface Navigated {
  page: Page;
  status: number | null;
  tracker: NetworkTracker;
  deadline: number;
  signal: AbortSignal;
}

/** One launched browser and the pages it has served. */
interface Generation {
  browser: Promise<Browser>;
  pagesStarted: number;
  openPages: number;
  retired: boolean;
}

export class BrowserPool {
  private readonly executablePath: string | null;
  private readonly slots: Semaphore;
  private readonly blockedResourceTypes: ReadonlySet<string>;
  private current: Generation | null = null;
  private readonly live = new Set<Generation>();
  private launches = 0;
  private pagesServed = 0;
  private openPages = 0;
  private closed = false;
  private readonly proxy: GuardingProxy;

  constructor(
    private readonly options: BrowserPoolOptions,
    private readonly guard: UrlGuard,
    private readonly logger: Logger,
  ) {
    this.executablePath = findChromium(options.executablePath);
    this.slots = new Semaphore(options.maxConcurrentPages);
    this.blockedResourceTypes = new Set(options.blockedResourceTypes ?? DEFAULT_BLOCKED_RESOURCE_TYPES);
    this.proxy = new GuardingProxy(guard, logger);
  }

  /** QUARRY_CHROMIUM_PATH, then /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome. */
  static findChromium(explicit?: string): string | null {
    return findChromium(explicit);
  }

  available(): boolean {
    return this.executablePath !== null && !this.closed;
  }

  /** For health checks: Chromium is installed and, once launched, still answering. Throws when not. */
  async probe(): Promise<string> {
    if (!this.executablePath) throw new Error('Chromium not found: set browser.executablePath or QUARRY_CHROMIUM_PATH');
    if (this.closed) throw new Error('the browser pool is closed');
    const current = this.current;
    if (!current) return `not started (launched on first use): ${this.executablePath}`;
    const browser = await current.browser;
    if (!browser.isConnected()) throw new Error('the browser is not connected');
    return `running: ${browser.version()}`;
  }

  stats(): { launched: boolean; openPages: number; pagesServed: number; browserRestarts: number } {
    return {
      launched: this.live.size > 0,
      openPages: this.openPages,
      pagesServed: this.pagesServed,
      browserRestarts: Math.max(0, this.launches - 1),
    };
  }

  /** Runs fn with a fresh page in its own context; the context is closed afterwards whatever happens. */
  async withPage<T>(fn: (page: Page) => Promise<T>, opts: { signal?: AbortSignal } = {}): Promise<T> {
    try {
      return await this.usePage((page) => fn(page), opts.signal);
    } catch (error) {
      if (opts.signal?.aborted && !isAppError(error)) throw new AppError('CANCELLED', 'browser page cancelled', { cause: error });
      throw error;
    }
  }

  /** Loads url in a page, runs its scripts and returns the resulting HTML. */
  async renderHtml(url: string, opts: RenderOptions): Promise<RenderedPage> {
    const { html, finalUrl, status } = await this.render(url, opts);
    return { html, finalUrl, status };
  }

  /** renderHtml plus an optional screenshot and PDF of the rendered page. */
  async render(url: string, opts: RenderRequest): Promise<RenderResult> {
    return this.navigate(url, opts, async ({ page, status, deadline }) => {
      const captured = await capture(page, opts, deadline);
      return { ...captured, finalUrl: page.url(), status };
    });
  }

  /**
   * Loads url, then scrolls it to the bottom repeatedly, capturing the main
   * content after every step (see scroll-collect.ts). Stops when a round
   * changes neither height nor content, after maxScrolls rounds, or just
   * before timeoutMs — then answering with what it collected so far.
   */
  async scrollAndCollect(url: string, opts: ScrollCollectOptions): Promise<ScrollCollectResult> {
    const navigation: RenderOptions = { timeoutMs: opts.timeoutMs, waitUntil: 'load', ...(opts.signal ? { signal: opts.signal } : {}) };
    return this.navigate(url, navigation, ({ page, tracker, deadline, signal }) => collectByScrolling(page, tracker, opts, deadline, signal));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = null;
    const generations = [...this.live];
    this.live.clear();
    await Promise.allSettled(generations.map((generation) => closeBrowser(generation)));
    await this.proxy.close();
  }

  /**
   * The guarded navigation every page method shares: check the URL, take a
   * page slot, navigate and wait, then run work on the page — all under one
   * deadline, with failures turned into TIMEOUT / CANCELLED /
   * FORBIDDEN_ADDRESS / UPSTREAM_FAILED.
   */
  private async navigate<T>(url: string, opts: RenderOptions, work: (navigated: Navigated) => Promise<T>): Promise<T> {
    this.assertUsable();
    const deadline = Date.now() + opts.timeoutMs;
    // Covers waiting for a page slot and for the launch, not just the navigation.
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    try {
      await this.guard.checkUrl(url);
      return await this.usePage(async (page, state) => {
        // Attached before goto so the document's own requests are counted.
        const tracker = trackNetwork(page);
        try {
          let response;
          try {
            response = await navigateAndWait(page, url, tracker, opts.waitUntil ?? 'load', deadline, signal);
          } catch (error) {
            throw (await this.refusalBehind(state)) ?? error;
          }
          return await work({ page, status: response?.status() ?? null, tracker, deadline, signal });
        } finally {
          tracker.dispose();
        }
      }, signal);
    } catch (error) {
      throw renderFailure(error, url, opts, timeout);
    }
  }

  /** Whether a failed navigation failed because the guard refused it (first request or a redirect hop). */
  private async refusalBehind(state: GuardedContextState): Promise<AppError | null> {
    if (state.navigationRefusal) return state.navigationRefusal;
    if (!state.lastNavigationUrl) return null;
    try {
      await this.guard.checkUrl(state.lastNavigationUrl);
      return null;
    } catch (error) {
      return isAppError(error) ? error : null;
    }
  }

  private assertUsable(): void {
    if (!this.executablePath) throw new AppError('UNAVAILABLE', CHROMIUM_MISSING_HINT);
    if (this.closed) throw new AppError('UNAVAILABLE', 'the browser pool is shut down');
  }

  private async usePage<T>(fn: (page: Page, state: GuardedContextState) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.assertUsable();
    const release = await this.slots.acquire(signal);
    try {
      this.assertUsable();
      const generation = this.generationForNextPage();
      generation.openPages++;
      this.openPages++;
      try {
        const browser = await untilAborted(generation.browser, signal);
        const context = await browser.newContext({
          serviceWorkers: 'block', // their fetches would bypass context.route
          ...(this.options.userAgent ? { userAgent: this.options.userAgent } : {}),
        });
        // Closing the context makes whatever fn awaits on the page reject at once.
        const closeOnAbort = (): void => void context.close().catch(() => undefined);
        signal?.addEventListener('abort', closeOnAbort, { once: true });
        try {
          const state = await guardContext(context, this.guard, this.blockedResourceTypes, this.logger);
          const page = await context.newPage();
          return await untilAborted(fn(page, state), signal);
        } finally {
          signal?.removeEventListener('abort', closeOnAbort);
          await context.close().catch(() => undefined);
        }
      } finally {
        generation.openPages--;
        this.openPages--;
        this.pagesServed++;
        if (generation.retired && generation.openPages === 0) void closeBrowser(generation).finally(() => this.live.delete(generation));
      }
    } finally {
      release();
    }
  }

  /** The browser for the next page: retires a worn-out or dead one and launches lazily. */
  private generationForNextPage(): Generation {
    const current = this.current;
    if (current && current.pagesStarted >= this.options.recycleAfterPages) this.retire(current, 'recycle');
    if (!this.current) this.current = this.launch();
    this.current.pagesStarted++;
    return this.current;
  }

  private retire(generation: Generation, reason: 'recycle' | 'disconnected' | 'launch failed'): void {
    generation.retired = true;
    if (this.current === generation) this.current = null;
    this.logger.info({ reason, pages: generation.pagesStarted }, 'retiring the browser');
    if (generation.openPages === 0) void closeBrowser(generation).finally(() => this.live.delete(generation));
  }

  private launch(): Generation {
    const executablePath = this.executablePath!;
    this.launches++;
    const started = Date.now();
    // The launch callbacks below need the generation they belong to, so build it first.
    const generation = { pagesStarted: 0, openPages: 0, retired: false } as Generation;
    generation.browser = this.proxy
      .start()
      .then((proxyServer) =>
        chromium.launch({
          executablePath,
          headless: true,
          args: CHROMIUM_ARGS,
          timeout: this.options.launchTimeoutMs ?? 30_000,
          // "<-loopback>" removes Chromium's built-in bypass, so loopback goes through the proxy too.
          proxy: { server: proxyServer, bypass: '<-loopback>' },
        }),
      )
      .then(
        (browser) => {
          this.logger.info({ executablePath, ms: Date.now() - started }, 'browser launched');
          browser.on('disconnected', () => {
            if (!generation.retired && !this.closed) {
              this.logger.warn('the browser disconnected; a new one will be launched for the next page');
              this.retire(generation, 'disconnected');
            }
            this.live.delete(generation);
          });
          return browser;
        },
        (error: unknown) => {
          this.logger.error({ err: error, executablePath }, 'Chromium failed to start');
          this.retire(generation, 'launch failed');
          this.live.delete(generation);
          throw new AppError('UNAVAILABLE', `Chromium at ${executablePath} failed to start`, { cause: error });
        },
      );
    // Waiters handle the rejection; this only keeps it from being reported as unhandled.
    generation.browser.catch(() => undefined);
    this.live.add(generation);
    return generation;
  }
}

async function closeBrowser(generation: Generation): Promise<void> {
  const browser = await generation.browser.catch(() => null);
  await browser?.close().catch(() => undefined);
}

/** Settles like promise, or rejects with signal.reason as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function renderFailure(error: unknown, url: string, opts: RenderOptions, timeout: AbortSignal): AppError {
  if (opts.signal?.aborted) return new AppError('CANCELLED', `rendering ${url} was cancelled`, { cause: error });
  if (isAppError(error)) return error;
  if (timeout.aborted || error instanceof playwrightErrors.TimeoutError) {
    return new AppError('TIMEOUT', `rendering ${url} took longer than ${opts.timeoutMs} ms`, { details: { url }, cause: error });
  }
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  // Chromium's net::ERR_* codes mean the site could not be reached (refused, DNS, reset), not that rendering broke.
  const netError = /net::(ERR_[A-Z_]+)/.exec(reason)?.[1];
  const details = netError ? { url, reason: 'network', net_error: netError } : { url };
  return new AppError('UPSTREAM_FAILED', `rendering ${url} failed: ${reason}`, { details, cause: error });
}
