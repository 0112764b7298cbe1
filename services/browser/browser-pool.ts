/**
 * A lazily launched headless Chromium shared by all page renders: one browser,
 * a fresh context per page (closed after use), a bound on concurrent pages,
 * and a relaunch after recycleAfterPages pages or when the browser dies.
 * Every request a page makes is checked by the outbound guard: when it starts
 * (context.route) and when it connects (GuardingProxy, which sees redirects).
 * Every main-frame navigation, redirect hops included, is checked against
 * robots.txt before it is sent (navigation-guard.ts).
 * Every page call settles by its deadline whatever the browser does: a browser
 * that stops answering (a context that does not close in time) is killed.
 */
import type { Browser, Page } from 'playwright-core';
import { AppError, isAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { Semaphore } from '../../core/http/semaphore.js';
import { killMarkedProcesses, launchMarker } from './browser-process.js';
import { abortableSleep, startDeadline, untilAborted, type Deadline } from '../../core/abort.js';
import { settlesWithin, within } from './deadline.js';
import { CHROMIUM_MISSING_HINT, findChromium } from './find-chromium.js';
import { GuardingProxy } from './guarding-proxy.js';
import { trackNetwork, type NetworkTracker } from './network-idle.js';
import { capture, navigateAndWait, type CaptureRequest, type WaitUntil } from './page-render.js';
import { runPageActions, type PageAction, type PageActionOutcome } from './page-actions.js';
import { PageSession, type OpenedPage, type PageProfile, type PageSetup } from './page-session.js';
import { collectByScrolling, type ScrollCollectOptions, type ScrollCollectResult } from './scroll-collect.js';
import type { GuardedContextState, UrlGuard } from './request-guard.js';

/**
 * Playwright, loaded on the first launch: its bundles are ~7 MB of source and their code, which every
 * major collection of a server that never renders would otherwise mark again.
 */
let playwright: typeof import('playwright-core') | undefined;
async function loadPlaywright(): Promise<typeof import('playwright-core')> {
  playwright ??= await import('playwright-core');
  return playwright;
}

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

/** A healthy browser closes a context in milliseconds; one that takes longer has stopped answering and is killed. */
const CONTEXT_CLOSE_TIMEOUT_MS = 3000;
/** Making a context and a page, for callers without a deadline of their own (withPage). */
const PAGE_OPEN_TIMEOUT_MS = 15_000;
/** browser.close() waits for the process to exit; after this long the process is killed instead. */
const BROWSER_CLOSE_TIMEOUT_MS = 2000;
/** For Playwright to notice a killed process. */
const KILL_WAIT_MS = 1000;

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
export type { PageAction, PageActionOutcome, PageActionType } from './page-actions.js';

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
  /**
   * Every URL the main frame was sent to, redirect hops included, in order (robots.txt was asked before each was sent;
   * the reader asks again).
   */
  navigationUrls: string[];
}

export interface RenderRequest extends RenderOptions, CaptureRequest {
  /**
   * Run in order once the page has loaded (and waitFor has passed), before the HTML and captures are taken
   * (page-actions.ts).
   */
  actions?: readonly PageAction[];
  /** A phone's viewport, touch and user agent (page-session.ts). */
  mobile?: boolean;
  /**
   * Sent with every request the page makes to the origin of url (and only there); the caller has dropped hop-by-hop and
   * host headers.
   */
  headers?: Record<string, string>;
  /** Milliseconds to wait after the page counts as loaded, before actions and captures. */
  waitFor?: number;
}

export interface RenderResult extends RenderedPage {
  /** What the actions produced, when there were any. */
  actions?: PageActionOutcome;
  /** PNG of the page (full page, cut at MAX_SCREENSHOT_HEIGHT px), when asked for. */
  screenshot?: Buffer;
  /** The page printed to PDF (A4, backgrounds on), when asked for. */
  pdf?: Buffer;
}

/** What a navigation hands to the work done on the page after it. */
interface Navigated {
  page: Page;
  status: number | null;
  /** The main frame's navigations so far (a live list: read it when the work is done). */
  navigationUrls: string[];
  tracker: NetworkTracker;
  state: GuardedContextState;
  deadline: number;
  signal: AbortSignal;
}

type PageWork<T> = (page: Page, state: GuardedContextState) => Promise<T>;

type RetireReason = 'recycle' | 'disconnected' | 'launch failed' | 'unresponsive';

/** One launched browser and the pages it has served. */
interface Generation {
  browser: Promise<Browser>;
  /** Launch switch that finds the process again when it has to be killed. */
  marker: string;
  pagesStarted: number;
  openPages: number;
  retired: boolean;
  /** Set once its shutdown has started. */
  closing: Promise<void> | null;
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
  private readonly pageSetup: PageSetup;

  constructor(
    private readonly options: BrowserPoolOptions,
    private readonly guard: UrlGuard,
    private readonly logger: Logger,
  ) {
    this.executablePath = findChromium(options.executablePath);
    this.slots = new Semaphore(options.maxConcurrentPages);
    this.blockedResourceTypes = new Set(options.blockedResourceTypes ?? DEFAULT_BLOCKED_RESOURCE_TYPES);
    this.proxy = new GuardingProxy(guard, logger);
    this.pageSetup = {
      guard,
      blockedResourceTypes: this.blockedResourceTypes,
      logger,
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    };
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

  /**
   * Runs fn with a fresh page in its own context; the context is closed
   * afterwards whatever happens. Settles on signal or after timeoutMs
   * (TIMEOUT); without either, only opening and closing the page are bounded.
   */
  async withPage<T>(
    fn: (page: Page) => Promise<T>,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<T> {
    const timeout = opts.timeoutMs === undefined ? undefined : startDeadline(opts.timeoutMs, opts.signal);
    try {
      return await this.usePage((page) => fn(page), timeout ? timeout.signal : opts.signal);
    } catch (error) {
      if (opts.signal?.aborted && !isAppError(error))
        throw new AppError('CANCELLED', 'browser page cancelled', { cause: error });
      if (timeout?.expired && !isAppError(error))
        throw new AppError('TIMEOUT', `browser page work took longer than ${opts.timeoutMs} ms`, { cause: error });
      throw error;
    } finally {
      timeout?.dispose();
    }
  }

  /** Loads url in a page, runs its scripts and returns the resulting HTML. */
  async renderHtml(url: string, opts: RenderOptions): Promise<RenderedPage> {
    const { html, finalUrl, status, navigationUrls } = await this.render(url, opts);
    return { html, finalUrl, status, navigationUrls };
  }

  /** renderHtml plus an optional screenshot and PDF of the rendered page. */
  async render(url: string, opts: RenderRequest): Promise<RenderResult> {
    return this.navigate(
      url,
      opts,
      async ({ page, status, navigationUrls, tracker, state, deadline, signal }) => {
        if (opts.waitFor) await abortableSleep(opts.waitFor, signal);
        const actions = opts.actions?.length
          ? await runPageActions(opts.actions, { page, tracker, state, deadline, signal })
          : undefined;
        const captured = await capture(page, opts, deadline, signal);
        return {
          ...captured,
          finalUrl: page.url(),
          status,
          navigationUrls: [...navigationUrls],
          ...(actions ? { actions } : {}),
        };
      },
      pageProfile(url, opts),
    );
  }

  /**
   * Loads url, then scrolls it to the bottom repeatedly, capturing the main
   * content after every step (see scroll-collect.ts). Stops when a round
   * changes neither height nor content, after maxScrolls rounds, or just
   * before timeoutMs — then answering with what it collected so far.
   */
  async scrollAndCollect(url: string, opts: ScrollCollectOptions): Promise<ScrollCollectResult> {
    const navigation: RenderOptions = {
      timeoutMs: opts.timeoutMs,
      waitUntil: 'load',
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
    return this.navigate(url, navigation, async ({ page, tracker, navigationUrls, deadline, signal }) => ({
      ...(await collectByScrolling(page, tracker, opts, deadline, signal)),
      navigationUrls: [...navigationUrls],
    }));
  }

  /** Bounded: a browser that does not close within BROWSER_CLOSE_TIMEOUT_MS is killed. */
  async close(): Promise<void> {
    this.closed = true;
    this.current = null;
    await Promise.allSettled([...this.live].map((generation) => this.shutDown(generation)));
    await this.proxy.close();
  }

  /**
   * The guarded navigation every page method shares: check the URL, take a
   * page slot, navigate and wait, then run work on the page — all under one
   * deadline, with failures turned into TIMEOUT / CANCELLED /
   * FORBIDDEN_ADDRESS / UPSTREAM_FAILED.
   */
  private async navigate<T>(
    url: string,
    opts: RenderOptions,
    work: (navigated: Navigated) => Promise<T>,
    profile: PageProfile = {},
  ): Promise<T> {
    this.assertUsable();
    const deadline = Date.now() + opts.timeoutMs;
    // Covers waiting for a page slot and for the launch, not just the navigation.
    const timeout = startDeadline(opts.timeoutMs, opts.signal);
    const signal = timeout.signal;
    try {
      await untilAborted(this.guard.checkUrl(url), signal);
      return await this.usePage(
        async (page, state) => {
          // Attached before goto so the document's own requests are counted.
          const tracker = trackNetwork(page);
          try {
            let response;
            try {
              response = await navigateAndWait(page, url, tracker, opts.waitUntil ?? 'load', deadline, signal);
            } catch (error) {
              throw (await this.refusalBehind(state, signal)) ?? error;
            }
            const result = await work({
              page,
              status: response?.status() ?? null,
              navigationUrls: state.navigationUrls,
              tracker,
              state,
              deadline,
              signal,
            });
            // A later navigation (a script's, a meta refresh) that was refused left the browser's error page: the
            // refusal is the answer.
            if (state.navigationRefusal) throw state.navigationRefusal;
            return result;
          } finally {
            tracker.dispose();
          }
        },
        signal,
        profile,
      );
    } catch (error) {
      throw renderFailure(error, url, opts, timeout);
    } finally {
      timeout.dispose();
    }
  }

  /** Whether a failed navigation failed because the guard refused it (first request or a redirect hop). */
  private async refusalBehind(state: GuardedContextState, signal: AbortSignal): Promise<AppError | null> {
    if (state.navigationRefusal) return state.navigationRefusal;
    if (!state.lastNavigationUrl) return null;
    try {
      await untilAborted(this.guard.checkUrl(state.lastNavigationUrl), signal);
      return null;
    } catch (error) {
      return isAppError(error) ? error : null;
    }
  }

  private assertUsable(): void {
    if (!this.executablePath) throw new AppError('UNAVAILABLE', CHROMIUM_MISSING_HINT);
    if (this.closed) throw new AppError('UNAVAILABLE', 'the browser pool is shut down');
  }

  /** Takes a page slot and runs fn on a fresh page; slot and count are given back when the call settles. */
  private async usePage<T>(fn: PageWork<T>, signal?: AbortSignal, profile: PageProfile = {}): Promise<T> {
    this.assertUsable();
    const release = await this.slots.acquire(signal);
    let generation: Generation | null = null;
    try {
      this.assertUsable();
      generation = this.generationForNextPage();
      generation.openPages++;
      this.openPages++;
      return await this.runSession(generation, fn, signal, profile);
    } finally {
      if (generation) this.pageDone(generation);
      release();
    }
  }

  /** Opens a page, runs fn on it and closes it; settles once signal aborts, whatever the browser still does. */
  private async runSession<T>(
    generation: Generation,
    fn: PageWork<T>,
    signal: AbortSignal | undefined,
    profile: PageProfile,
  ): Promise<T> {
    const session = new PageSession(this.pageSetup, profile);
    // Closing the context makes whatever fn awaits on the page reject at once.
    const closeOnAbort = (): void => void session.close();
    signal?.addEventListener('abort', closeOnAbort, { once: true });
    try {
      return await untilAborted(this.openAndRun(generation, session, fn), signal);
    } finally {
      signal?.removeEventListener('abort', closeOnAbort);
      await this.closeSession(session, generation, signal);
    }
  }

  private async openAndRun<T>(generation: Generation, session: PageSession, fn: PageWork<T>): Promise<T> {
    const { page, state } = await this.openPage(await generation.browser, session);
    return fn(page, state);
  }

  /** Bounded on its own, for callers without a deadline (withPage); the close that follows retires a hung browser. */
  private async openPage(browser: Browser, session: PageSession): Promise<OpenedPage> {
    const openTimeout = AbortSignal.timeout(PAGE_OPEN_TIMEOUT_MS);
    try {
      return await untilAborted(session.open(browser), openTimeout);
    } catch (error) {
      if (!openTimeout.aborted) throw error;
      throw new AppError('TIMEOUT', `the browser did not open a page within ${PAGE_OPEN_TIMEOUT_MS} ms`, {
        cause: error,
      });
    }
  }

  /**
   * The caller waits for an ordinary close, but not past its own deadline
   * and not longer than CONTEXT_CLOSE_TIMEOUT_MS. A close that takes longer
   * means the browser stopped answering: it is killed, whoever waits.
   */
  private async closeSession(session: PageSession, generation: Generation, signal?: AbortSignal): Promise<void> {
    const closed = session.close();
    void settlesWithin(closed, CONTEXT_CLOSE_TIMEOUT_MS).then((settled) => {
      if (settled) return;
      this.logger.warn(
        { ms: CONTEXT_CLOSE_TIMEOUT_MS },
        'a browser context did not close in time; killing that browser',
      );
      this.retire(generation, 'unresponsive');
    });
    await settlesWithin(closed, CONTEXT_CLOSE_TIMEOUT_MS, signal);
  }

  private pageDone(generation: Generation): void {
    generation.openPages--;
    this.openPages--;
    this.pagesServed++;
    if (generation.retired && generation.openPages === 0) void this.shutDown(generation);
  }

  /** The browser for the next page: retires a worn-out or dead one and launches lazily. */
  private generationForNextPage(): Generation {
    const current = this.current;
    if (current && current.pagesStarted >= this.options.recycleAfterPages) this.retire(current, 'recycle');
    if (!this.current) this.current = this.launch();
    this.current.pagesStarted++;
    return this.current;
  }

  /** No new pages for generation; it is shut down once its pages are done, or now if it cannot serve them anyway. */
  private retire(generation: Generation, reason: RetireReason): void {
    if (this.current === generation) this.current = null;
    if (!generation.retired) this.logger.info({ reason, pages: generation.pagesStarted }, 'retiring the browser');
    generation.retired = true;
    const hopeless = reason === 'unresponsive' || reason === 'launch failed';
    if (hopeless || generation.openPages === 0) void this.shutDown(generation);
  }

  /** Once per generation; bounded (see closeGeneration). */
  private shutDown(generation: Generation): Promise<void> {
    generation.closing ??= closeGeneration(generation, this.logger).finally(() => this.live.delete(generation));
    return generation.closing;
  }

  private launch(): Generation {
    const executablePath = this.executablePath!;
    this.launches++;
    const started = Date.now();
    // The launch callbacks below need the generation they belong to, so build it first.
    const generation = {
      marker: launchMarker(),
      pagesStarted: 0,
      openPages: 0,
      retired: false,
      closing: null,
    } as Generation;
    generation.browser = this.proxy
      .start()
      .then((proxyServer) =>
        loadPlaywright().then(({ chromium }) =>
          chromium.launch({
            executablePath,
            headless: true,
            args: [...CHROMIUM_ARGS, generation.marker],
            timeout: this.options.launchTimeoutMs ?? 30_000,
            // "<-loopback>" removes Chromium's built-in bypass, so loopback goes through the proxy too.
            proxy: { server: proxyServer, bypass: '<-loopback>' },
          }),
        ),
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
          // A launch cut short by close() (its process killed) is no failure to report.
          if (!this.closed) this.logger.error({ err: error, executablePath }, 'Chromium failed to start');
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

/**
 * Playwright's browser.close() waits for the process to exit, which a hung
 * Chromium never does (nor a launch that never finished): it gets
 * BROWSER_CLOSE_TIMEOUT_MS, then whatever is left of the process is killed.
 */
async function closeGeneration(generation: Generation, logger: Logger): Promise<void> {
  const closed = generation.browser
    .then((browser) => browser.close())
    .then(
      () => 'closed' as const,
      () => 'failed' as const,
    );
  const outcome = await within(closed, BROWSER_CLOSE_TIMEOUT_MS, 'timed out' as const);
  if (outcome === 'closed') return;
  // Also after a failed launch: Playwright gives up on a launch without always ending its process.
  const pids = killMarkedProcesses(generation.marker);
  if (pids.length > 0) logger.warn({ pids, outcome }, 'killed a browser that did not close');
  else if (outcome === 'timed out') logger.warn('a browser did not close and its process was not found to kill');
  await settlesWithin(closed, KILL_WAIT_MS);
}

/** The phone profile and the caller's headers (for the page's own origin) of one render. */
function pageProfile(url: string, request: RenderRequest): PageProfile {
  const profile: PageProfile = {};
  if (request.mobile) profile.mobile = true;
  if (request.headers && Object.keys(request.headers).length > 0)
    profile.extraHeaders = { origin: new URL(url).origin, headers: request.headers };
  return profile;
}

function renderFailure(error: unknown, url: string, opts: RenderOptions, timeout: Deadline): AppError {
  if (opts.signal?.aborted) return new AppError('CANCELLED', `rendering ${url} was cancelled`, { cause: error });
  if (isAppError(error)) return error;
  if (timeout.expired || (playwright !== undefined && error instanceof playwright.errors.TimeoutError)) {
    return new AppError('TIMEOUT', `rendering ${url} took longer than ${opts.timeoutMs} ms`, {
      details: { url },
      cause: error,
    });
  }
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  // Chromium's net::ERR_* codes mean the site could not be reached (refused, DNS, reset), not that rendering broke.
  const netError = /net::(ERR_[A-Z_]+)/.exec(reason)?.[1];
  const details = netError ? { url, reason: 'network', net_error: netError } : { url };
  return new AppError('UPSTREAM_FAILED', `rendering ${url} failed: ${reason}`, { details, cause: error });
}
