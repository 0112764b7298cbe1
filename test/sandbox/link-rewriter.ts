/**
 * Rewrites result links in a recorded engine answer so they point at the
 * sandbox (`<sandbox>/site/<host><path>`) instead of the internet. Handles raw
 * URLs (also with HTML-escaped `&amp;` queries), JSON-escaped `https:\/\/`
 * and percent-encoded `https%3A%2F%2F` (as inside redirect query strings).
 * Only the scheme+host prefix is replaced, so the rest keeps its escaping.
 */

export interface RewrittenLink {
  /** The link as it was in the recording, decoded to a plain URL. */
  original: string;
  /** Where the rewritten link now points. */
  sandboxUrl: string;
}

export interface LinkRewriteOptions {
  /** e.g. http://127.0.0.1:12345 */
  sandboxUrl: string;
  /** Hosts (and their subdomains) that are left alone: the engine's own. */
  keepHosts?: string[];
}

// Search-engine infrastructure: redirect wrappers, static servers, trackers.
const ENGINE_HOSTS =
  /(^|\.)(google(\.[a-z]{2,3}){1,2}|gstatic\.com|googleapis\.com|googleusercontent\.com|googleadservices\.com|googlesyndication\.com|doubleclick\.net|bing\.com|bing\.net|duckduckgo\.com|yahoo\.com|yahoo\.net|yimg\.com|yandex(\.[a-z]{2,3}){1,2}|yastatic\.net|baidu\.com|bdstatic\.com|brave\.com|ask\.com|aol\.com)$/i;
// Hosts that appear in markup as namespaces or vocabularies, not as links.
const NON_PAGE_HOSTS =
  /(^|\.)(w3\.org|schema\.org|ogp\.me|purl\.org|xmlns\.com|a9\.com|schemas\.live\.com|schemas\.microsoft\.com|localhost|127\.0\.0\.1)$/i;
const NAMESPACE_ATTRIBUTE = /xmlns(:[\w-]+)?\s*=\s*["']?$/i;
const STATIC_ASSET = /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|css|js|mjs|map|woff2?|ttf|otf|eot)$/i;

const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const URL_PREFIX = new RegExp(`(https?)(://|:\\\\/\\\\/|%3A%2F%2F)(${LABEL}(?:\\.${LABEL})+)((?::|%3A)\\d+)?`, 'gi');

type Form = 'raw' | 'json' | 'percent';

function formOf(separator: string): Form {
  if (separator === '://') return 'raw';
  return separator.startsWith(':') ? 'json' : 'percent';
}

/**
 * The rest of the URL after scheme and host, decoded to plain text. A URL
 * that is itself a query value (`/url?q=https://…&sa=U`) ends at the next `&`.
 */
function decodeTail(form: Form, following: string, isQueryValue: boolean): string {
  if (form === 'raw') {
    const tail = (/^[^\s"'<>\\]*/.exec(following)?.[0] ?? '').replace(/&amp;/g, '&');
    return isQueryValue ? tail.split('&')[0]! : tail;
  }
  if (form === 'json') {
    const tail = /^(?:\\\/|\\u0026|[^\s"'<>\\])*/.exec(following)?.[0] ?? '';
    return tail.replace(/\\\//g, '/').replace(/\\u0026/g, '&');
  }
  // Inside an encoded URL every reserved character is escaped: a raw one ends it.
  const tail = /^[^\s"'<>&\\/?#]*/.exec(following)?.[0] ?? '';
  try {
    return decodeURIComponent(tail);
  } catch {
    return tail;
  }
}

function hostIsKept(host: string, keepHosts: string[]): boolean {
  if (ENGINE_HOSTS.test(host) || NON_PAGE_HOSTS.test(host)) return true;
  return keepHosts.some((kept) => host === kept || host.endsWith(`.${kept}`));
}

export function isStaticAsset(pathname: string): boolean {
  return STATIC_ASSET.test(pathname);
}

/** The sandbox URL a real URL is rewritten to. */
export function siteUrlFor(sandboxUrl: string, original: string): string {
  const url = new URL(original);
  return `${sandboxUrl}/site/${url.hostname}${url.pathname}${url.search}`;
}

function prefixFor(form: Form, sandboxUrl: string, host: string): string {
  const prefix = `${sandboxUrl}/site/${host}`;
  if (form === 'raw') return prefix;
  if (form === 'json') return prefix.replace(/\//g, '\\/');
  return encodeURIComponent(prefix);
}

export function rewriteLinks(body: string, options: LinkRewriteOptions): { body: string; links: RewrittenLink[] } {
  const keepHosts = (options.keepHosts ?? []).map((host) => host.toLowerCase().replace(/^www\./, ''));
  const links: RewrittenLink[] = [];
  const rewritten = body.replace(
    URL_PREFIX,
    (match: string, scheme: string, separator: string, rawHost: string, _port: string | undefined, offset: number) => {
      const host = rawHost.toLowerCase();
      if (hostIsKept(host, keepHosts)) return match;
      const before = body.slice(Math.max(0, offset - 40), offset);
      if (NAMESPACE_ATTRIBUTE.test(before)) return match;
      const form = formOf(separator.toLowerCase());
      const tail = decodeTail(
        form,
        body.slice(offset + match.length, offset + match.length + 4096),
        /[=]$/.test(before),
      );
      let original: URL;
      try {
        original = new URL(
          `${scheme.toLowerCase()}://${host}${tail.startsWith('/') || tail.startsWith('?') ? tail : '/'}`,
        );
      } catch {
        return match;
      }
      if (isStaticAsset(original.pathname)) return match;
      links.push({ original: original.href, sandboxUrl: siteUrlFor(options.sandboxUrl, original.href) });
      return prefixFor(form, options.sandboxUrl, host);
    },
  );
  return { body: rewritten, links };
}
