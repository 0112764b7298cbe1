/**
 * Hosts and sites as every part of Quarry compares them: the one rule, so a
 * domain filter, a duplicate key, a crawl's "same site" and a credibility
 * lookup never disagree about whether two URLs are on one host.
 *
 * Rules:
 * - A host is compared lower-case, without a trailing dot, and without a
 *   leading "www." or "www<digits>." label: www.example.com, www2.example.com
 *   and example.com are one host (sites serve one site under www1, www2, …:
 *   www1.cbn.com is CBN). Every other label is kept, "m." too: another
 *   subdomain may well be another site.
 * - The port is no part of a host (hostOf), but it is part of a site
 *   (siteKey): example.com:8080 is another server than example.com. A
 *   scheme's default port is no port (URL drops it).
 * - The scheme is no part of either: http://example.com and
 *   https://www.example.com are the same site.
 */

import { bareHost, startsWithWww } from '../../core/host-name.js';

/** The rule itself lives in the kernel (core/host-name.ts), which engines and core's domain schema also read. */
export { bareHost, startsWithWww };

/** The host a URL names, as bareHost gives it (no port); null when it is no absolute URL. */
export function hostOf(url: string | URL): string | null {
  const parsed = parsedUrl(url);
  return parsed ? bareHost(parsed.hostname) : null;
}

/** The site a URL is on: its bare host and, when it names one, its port; null when it is no absolute URL. */
export function siteKey(url: string | URL): string | null {
  const parsed = parsedUrl(url);
  if (!parsed) return null;
  const host = bareHost(parsed.hostname);
  return parsed.port ? `${host}:${parsed.port}` : host;
}

/** Whether two URLs are on the same site (siteKey); a URL that does not parse is on none. */
export function sameSite(a: string | URL, b: string | URL): boolean {
  const site = siteKey(a);
  return site !== null && site === siteKey(b);
}

function parsedUrl(url: string | URL): URL | null {
  if (typeof url !== 'string') return url;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
