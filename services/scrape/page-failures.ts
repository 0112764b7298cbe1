/**
 * The page reader's failure codes, one set for every area. A page that cannot
 * be read never fails the batch: it comes back with success false, one of
 * these stable codes and a readable reason. The codes are ours (not the HTTP
 * error catalogue) because they describe the target site, not the request.
 */
import { toAppError } from '../../core/errors.js';
import type { FailedAction } from './page-actions.js';

export const PAGE_ERROR_CODES = [
  'FORBIDDEN_ADDRESS', // the outbound policy refuses the address (private, loopback, link-local …)
  'ROBOTS_DISALLOWED', // robots.txt disallows the page for Quarry
  'UNREACHABLE', // DNS failure, connection refused or reset
  'TIMEOUT', // not done within the request's timeout
  'HTTP_ERROR', // the site answered 4xx/5xx (status carries it)
  'BLOCKED', // CAPTCHA, block or consent-wall page (failure_reason says which)
  'EMPTY_CONTENT', // the page has no readable content
  // the page was read but our extractor could not take its main text apart (a bug of ours, not the site's doing)
  'EXTRACTION_FAILED',
  'UNSUPPORTED_CONTENT_TYPE', // not HTML or plain text
  'RESPONSE_TOO_LARGE', // over the configured response size cap
  'JAVASCRIPT_UNAVAILABLE', // browser rendering asked for, no Chromium on this installation
  'RENDER_FAILED', // Chromium could not render the page
  'ACTION_FAILED', // a page action could not be done (failedAction says which)
  'FETCH_FAILED', // any other upstream failure
  'CANCELLED', // the caller went away
  'INTERNAL', // a bug on our side
] as const;

export type PageErrorCode = (typeof PAGE_ERROR_CODES)[number];

/** A page the reader could not read, thrown with the reader's failure code (the site crawl lists it so). */
export class PageReadError extends Error {
  constructor(
    readonly code: PageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PageReadError';
  }
}

export interface PageFailure {
  code: PageErrorCode;
  reason: string;
  /** For ACTION_FAILED: which action. */
  action?: FailedAction;
}

export const JAVASCRIPT_UNAVAILABLE_REASON =
  'javascript rendering unavailable: Chromium was not found on this installation';

/** What an error thrown while fetching or rendering a page means for that page. */
export function classifyFailure(error: unknown, rendered: boolean): PageFailure {
  const appError = toAppError(error);
  const details = (appError.details ?? {}) as {
    reason?: string;
    action_index?: number;
    action_type?: FailedAction['type'];
  };
  switch (appError.code) {
    case 'ACTION_FAILED':
      return {
        code: 'ACTION_FAILED',
        reason: appError.message,
        ...(details.action_index !== undefined && details.action_type
          ? { action: { index: details.action_index, type: details.action_type } }
          : {}),
      };
    case 'FORBIDDEN_ADDRESS':
    case 'ROBOTS_DISALLOWED':
    case 'RESPONSE_TOO_LARGE':
    case 'CANCELLED':
      return { code: appError.code, reason: appError.message };
    case 'TIMEOUT':
      return { code: 'TIMEOUT', reason: `timeout: ${appError.message}` };
    case 'UNAVAILABLE':
      return rendered
        ? { code: 'JAVASCRIPT_UNAVAILABLE', reason: `${JAVASCRIPT_UNAVAILABLE_REASON} (${appError.message})` }
        : { code: 'FETCH_FAILED', reason: appError.message };
    case 'UNREACHABLE':
      return { code: 'UNREACHABLE', reason: appError.message };
    case 'UPSTREAM_FAILED':
      // The browser pool reports Chromium's network errors this way.
      if (details.reason === 'network' || details.reason === 'dns')
        return { code: 'UNREACHABLE', reason: appError.message };
      return { code: rendered ? 'RENDER_FAILED' : 'FETCH_FAILED', reason: appError.message };
    case 'UNSUPPORTED_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_CONTENT_TYPE', reason: appError.message };
    case 'INTERNAL':
      return { code: 'INTERNAL', reason: appError.message };
    default:
      return { code: rendered ? 'RENDER_FAILED' : 'FETCH_FAILED', reason: appError.message };
  }
}

/** What the extractor calls a page the site put up instead of its content (services/extract/blocked.ts). */
const BLOCK_PAGE_REASONS = new Set(['captcha', 'blocked', 'consent_wall']);

/**
 * The extractor's verdict on a page it could read: block pages and empty pages are failures too.
 * BLOCKED only for a block page; an extractor that broke on the page is EXTRACTION_FAILED, never a block.
 */
export function extractionFailure(failureReason: string | undefined): PageFailure {
  // A document nested past what browsers render has no content we can read either.
  if (!failureReason || failureReason === 'empty' || failureReason === 'markup_too_deep')
    return { code: 'EMPTY_CONTENT', reason: failureReason ?? 'empty' };
  if (BLOCK_PAGE_REASONS.has(failureReason)) return { code: 'BLOCKED', reason: failureReason };
  return { code: 'EXTRACTION_FAILED', reason: failureReason };
}
