/**
 * Firecrawl's error answer: `{success: false, error: "<text>", code, details}`
 * with Firecrawl's statuses, which its clients read (`error` as the message,
 * `code`, `details`; a 408 with SCRAPE_TIMEOUT is a timeout). Quarry's code is
 * kept in `details.quarryCode` so nothing is lost.
 */
import type { CapabilityDefinition } from '../../core/capability.js';

type HttpErrorView = Parameters<NonNullable<CapabilityDefinition['http']['errorReply']>>[0];

interface FirecrawlError {
  status: number;
  code: string;
}

/** Quarry's codes whose Firecrawl answer differs from status + code as they are. */
const FIRECRAWL_ERRORS: Record<string, FirecrawlError> = {
  INVALID_INPUT: { status: 400, code: 'BAD_REQUEST' },
  MALFORMED_REQUEST: { status: 400, code: 'BAD_REQUEST' },
  MALFORMED_JSON: { status: 400, code: 'BAD_REQUEST_INVALID_JSON' },
  UNAUTHORIZED: { status: 401, code: 'UNAUTHORIZED' },
  NOT_FOUND: { status: 404, code: 'NOT_FOUND' },
  TIMEOUT: { status: 408, code: 'SCRAPE_TIMEOUT' },
  ROBOTS_DISALLOWED: { status: 403, code: 'SCRAPE_ROBOTS_DISALLOWED' },
  FORBIDDEN_ADDRESS: { status: 403, code: 'SCRAPE_BLOCKLISTED_URL' },
  // A 502 is retried three times by the JS client; a site that cannot be read is not worth it.
  UNREACHABLE: { status: 500, code: 'SCRAPE_DNS_RESOLUTION_ERROR' },
  UPSTREAM_FAILED: { status: 500, code: 'SCRAPE_SITE_ERROR' },
  RESPONSE_TOO_LARGE: { status: 500, code: 'SCRAPE_SITE_ERROR' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 'SCRAPE_UNSUPPORTED_FILE_ERROR' },
  ACTION_FAILED: { status: 400, code: 'SCRAPE_ACTION_ERROR' },
  ACTION_NOT_ALLOWED: { status: 403, code: 'SCRAPE_ACTION_ERROR' },
  INTERNAL: { status: 500, code: 'UNKNOWN_ERROR' },
  // Asking for what this installation is not set up for (json without a model, screenshots without a browser):
  // Firecrawl never answers 503, and the request, not the server's health, is what must change.
  UNAVAILABLE: { status: 400, code: 'BAD_REQUEST' },
};

/** Firecrawl's code for one of Quarry's (a crawl's per-page errors carry it). */
export function firecrawlCodeOf(code: string): string {
  return FIRECRAWL_ERRORS[code]?.code ?? code;
}

export function firecrawlErrorReply(error: HttpErrorView): { status: number; body: Record<string, unknown> } {
  const mapped = FIRECRAWL_ERRORS[error.code] ?? { status: error.status, code: error.code };
  const details =
    error.details === undefined
      ? { quarryCode: error.code }
      : { quarryCode: error.code, ...(isRecord(error.details) ? error.details : { value: error.details }) };
  return { status: mapped.status, body: { success: false, error: messageOf(error), code: mapped.code, details } };
}

function messageOf(error: HttpErrorView): string {
  if (error.code === 'UNAUTHORIZED') return `Unauthorized: ${error.message}`;
  return error.message;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
