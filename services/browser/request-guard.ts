/**
 * Request interception for a browser context: every request and WebSocket a
 * page starts is checked with the outbound guard, and unwanted resource types
 * are dropped before they cost time. Redirect hops never reach route(); the
 * GuardingProxy all browser traffic goes through checks their addresses, and
 * navigation-guard.ts their robots.txt.
 */
import type { BrowserContext, Request } from 'playwright-core';
import { AppError, isAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { untilAborted } from '../../core/abort.js';

/** Navigations kept per page: a page that keeps navigating is not remembered without bound. */
const MAX_NAVIGATION_URLS = 50;

export interface UrlGuard {
  /** Throws (FORBIDDEN_ADDRESS) when the URL must not be loaded. */
  checkUrl(url: string): Promise<void>;
  /**
   * Throws (ROBOTS_DISALLOWED) when the main frame must not navigate to the URL; asked before each navigation and
   * redirect hop is sent (navigation-guard.ts).
   */
  checkNavigation?(url: string, signal: AbortSignal): Promise<void>;
}

export interface GuardedContextState {
  /** Set when a main-frame navigation (or redirect hop) was refused, to report it instead of a generic net error. */
  navigationRefusal: AppError | null;
  /** The main frame's latest navigation request, redirect hops included. */
  lastNavigationUrl: string | null;
  /**
   * Every URL the main frame was sent to, redirect hops and script navigations included, in order (the reader checks
   * robots.txt for each).
   */
  navigationUrls: string[];
  /**
   * Main-frame navigation requests so far, redirect hops included (not capped like navigationUrls): page actions see
   * whether they started one.
   */
  navigationCount: number;
  refusedRequests: number;
}

/**
 * Headers a caller asked to send, to one origin only (the page's): a site's cookies or tokens are never handed to the
 * hosts it loads from.
 */
export interface ExtraHeaders {
  origin: string;
  headers: Record<string, string>;
}

/** ended aborts when the page is done: checks still pending then stop waiting on the guard. */
export async function guardContext(
  context: BrowserContext,
  guard: UrlGuard,
  blockedResourceTypes: ReadonlySet<string>,
  logger: Logger,
  ended: AbortSignal,
  extraHeaders?: ExtraHeaders,
): Promise<GuardedContextState> {
  const state: GuardedContextState = {
    navigationRefusal: null,
    lastNavigationUrl: null,
    navigationUrls: [],
    navigationCount: 0,
    refusedRequests: 0,
  };
  context.on('request', (request) => {
    if (!isMainFrameNavigation(request)) return;
    state.navigationCount++;
    state.lastNavigationUrl = request.url();
    if (state.navigationUrls.length < MAX_NAVIGATION_URLS) state.navigationUrls.push(request.url());
  });
  // A route may be settled after its page closed; those late errors do not matter.
  const ignore = (): void => undefined;

  await context.route('**/*', async (route) => {
    const request = route.request();
    if (blockedResourceTypes.has(request.resourceType())) {
      await route.abort('blockedbyclient').catch(ignore);
      return;
    }
    try {
      await untilAborted(guard.checkUrl(request.url()), ended);
    } catch (error) {
      if (ended.aborted) {
        await route.abort('aborted').catch(ignore);
        return;
      }
      state.refusedRequests++;
      const refusal = isAppError(error)
        ? error
        : new AppError('FORBIDDEN_ADDRESS', `refused ${request.url()}`, { cause: error });
      if (isMainFrameNavigation(request)) state.navigationRefusal = refusal;
      logger.debug({ url: request.url(), code: refusal.code }, 'browser request refused by the outbound policy');
      await route.abort('blockedbyclient').catch(ignore);
      return;
    }
    // Redirect hops bypass route(); the guarding proxy checks those.
    const headers =
      extraHeaders && originOf(request.url()) === extraHeaders.origin
        ? { ...request.headers(), ...extraHeaders.headers }
        : undefined;
    await route.continue(headers ? { headers } : undefined).catch(ignore);
  });

  // context.route does not see WebSockets; check their URLs here.
  await context.routeWebSocket(/.*/, async (socket) => {
    try {
      await untilAborted(guard.checkUrl(socket.url()), ended);
      socket.connectToServer();
    } catch {
      state.refusedRequests++;
      logger.debug({ url: socket.url() }, 'browser WebSocket refused by the outbound policy');
      await socket.close({ code: 1008, reason: 'refused by the outbound policy' }).catch(ignore);
    }
  });
  return state;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function isMainFrameNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    // Service-worker requests have no frame.
    return false;
  }
}
