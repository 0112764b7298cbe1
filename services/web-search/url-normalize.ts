/**
 * URL normalisation for duplicate detection across engines. The result is a
 * comparison key, not a URL to fetch: the same page reached through http or
 * https, "www.", a default port, a trailing slash, a fragment, reordered
 * query parameters or tracking parameters gives the same key.
 *
 * Decisions:
 * - The scheme is left out of the key, so http and https compare equal.
 * - The host is compared as hosts.ts says: "www." (and "www2." …) is dropped;
 *   "m." is kept, because mobile hosts often serve different pages (and
 *   sometimes a different site altogether).
 * - Only percent-escapes of unreserved characters (RFC 3986: A-Z a-z 0-9 - . _ ~)
 *   are decoded; other escapes are kept, with upper-case hex, since decoding
 *   them can change the meaning of the path.
 * - Non-http(s) and unparsable URLs come back unchanged.
 */
import { bareHost } from './hosts.js';

/** Query parameters that only track the click and never change the page. */
const TRACKING_PARAM =
  /^(utm_\w+|gclid|gclsrc|dclid|gbraid|wbraid|fbclid|msclkid|yclid|twclid|ttclid|li_fat_id|igshid|mc_cid|mc_eid|ref_src|ref_url|_hsenc|_hsmi|mkt_tok|_ga|_gl|srsltid|oly_enc_id|oly_anon_id|vero_id|vero_conv|wickedid|s_kwcid|ef_id|spm|__s)$/i;

export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return url;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return url;

  // URL already drops the scheme's default port.
  const host = bareHost(parsed.hostname);
  const port = parsed.port ? `:${parsed.port}` : '';
  let path = decodeUnreserved(parsed.pathname);
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return `${host}${port}${path}${normalizedQuery(parsed.searchParams)}`;
}

function normalizedQuery(params: URLSearchParams): string {
  const kept = [...params.entries()]
    .filter(([key]) => !TRACKING_PARAM.test(key))
    // Code-unit order, not localeCompare: the key must not depend on the machine's locale.
    .sort(([keyA, valueA], [keyB, valueB]) => compare(keyA, keyB) || compare(valueA, valueB));
  return kept.length > 0 ? `?${new URLSearchParams(kept).toString()}` : '';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function decodeUnreserved(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (sequence, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : sequence.toUpperCase();
  });
}
