/**
 * A rendered page that is really Chromium's error page. When a navigation
 * after the first one (a script's redirect, a meta refresh) is refused by
 * the outbound guard or fails, Chromium shows its own error page at
 * chrome-error://chromewebdata/ and the render "succeeds" with that page's
 * text. Such a page is a failure with the reason Chromium gives: the guard
 * aborts requests as ERR_BLOCKED_BY_CLIENT, so that one is FORBIDDEN_ADDRESS.
 */
import { AppError } from '../../core/errors.js';

const UNREACHABLE_ERRORS =
  /^ERR_(?:NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|CONNECTION_(?:REFUSED|RESET|CLOSED|FAILED|TIMED_OUT)|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|EMPTY_RESPONSE|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)$/;

/** The failure a rendered page stands for, or null when it is a real page. */
export function errorPageFailure(rendered: { finalUrl: string; html: string }, requestedUrl: string): AppError | null {
  if (!/^chrome-error:|^about:|^data:/i.test(rendered.finalUrl)) return null;
  // The page's own data names its error ("errorCode":"ERR_…"); other ERR_ strings on it are just translations.
  const netError = /"errorCode":"(ERR_[A-Z_]+)"/.exec(rendered.html)?.[1] ?? 'ERR_FAILED';
  const details = { url: requestedUrl, reason: 'navigation', net_error: netError };
  if (netError === 'ERR_BLOCKED_BY_CLIENT') {
    return new AppError(
      'FORBIDDEN_ADDRESS',
      `rendering ${requestedUrl} navigated to an address the outbound policy refuses (${netError})`,
      { details },
    );
  }
  if (UNREACHABLE_ERRORS.test(netError)) {
    return new AppError(
      'UNREACHABLE',
      `rendering ${requestedUrl} navigated to a host that could not be reached (${netError})`,
      { details },
    );
  }
  return new AppError('UPSTREAM_FAILED', `rendering ${requestedUrl} ended on the browser's error page (${netError})`, {
    details,
  });
}
