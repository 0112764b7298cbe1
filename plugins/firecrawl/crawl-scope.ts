/**
 * Which links a Firecrawl crawl takes, as the site crawl asks
 * (services/discover/site-crawl.ts, one decision per link): the start URL's
 * children (its path a prefix of theirs) unless crawlEntireDomain; on its
 * host, subdomains with allowSubdomains, other sites with allowExternalLinks;
 * excludePaths, then includePaths (on the path, or the whole URL with
 * regexOnFullURL); one URL per path with ignoreQueryParameters; one URL of
 * those that differ only in www., http/https, a trailing slash or a trailing
 * index.html/index.php with deduplicateSimilarURLs; v1's maxDepth on the
 * path's depth below the start URL's. The caller's patterns run in the
 * extraction worker pool under a time limit, never on this thread.
 */
import type { LinkDecision } from '../../services/discover/site-crawl.js';
import { bareHost } from '../../services/web-search/hosts.js';
import type { TestPattern } from '../../services/extract/regex-test.js';

export type RegexTester = (texts: string[], patterns: TestPattern[], signal: AbortSignal) => Promise<boolean[][]>;

export interface CrawlScope {
  includePaths: string[];
  excludePaths: string[];
  regexOnFullURL: boolean;
  crawlEntireDomain: boolean;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  ignoreQueryParameters: boolean;
  /** Firecrawl's default (true); absent in jobs stored before it was served, which did not deduplicate. */
  deduplicateSimilarURLs?: boolean;
  /** v1's maxDepth: how many path segments beyond the start URL's a taken URL may have. */
  maxPathDepth?: number;
}

const hostOf = (url: URL): string => bareHost(url.hostname);
/** What URLs Firecrawl treats as one page share: no scheme, no www., no trailing slash or index page. */
const similarKey = (url: URL): string =>
  `${hostOf(url)}:${url.port}${url.pathname.replace(/\/(index\.(html|php))?$/, '')}${url.search}`;
/** Path segments, an index page's name not counted (as Firecrawl v1 counts them). */
const pathDepth = (url: URL): number =>
  url.pathname.split('/').filter((part) => part !== '' && part !== 'index.html' && part !== 'index.php').length;

export function crawlDecider(scope: CrawlScope, base: URL, test: RegexTester) {
  const patterns: TestPattern[] = [...scope.includePaths, ...scope.excludePaths].map((source) => ({
    source,
    flags: '',
  }));
  const baseHost = hostOf(base);
  const basePath = base.pathname;
  const baseDepth = pathDepth(base);
  const seenPaths = new Set<string>();
  const seenSimilar = new Set<string>();

  const onSite = (url: URL): 'site' | 'subdomain' | 'external' => {
    const host = hostOf(url);
    if (host === baseHost && url.port === base.port) return 'site';
    return host.endsWith(`.${baseHost}`) ? 'subdomain' : 'external';
  };

  return async (urls: URL[], signal: AbortSignal): Promise<LinkDecision[]> => {
    const texts = urls.map((url) => (scope.regexOnFullURL ? url.href : url.pathname));
    const matches = patterns.length > 0 ? await test(texts, patterns, signal) : [];
    const includes = matches.slice(0, scope.includePaths.length);
    const excludes = matches.slice(scope.includePaths.length);
    return urls.map((url, i): LinkDecision => {
      if (excludes.some((row) => row[i])) return 'drop';
      if (includes.length > 0 && !includes.some((row) => row[i])) return 'drop';
      const where = onSite(url);
      if (where === 'external' && !scope.allowExternalLinks) return 'drop';
      if (where === 'subdomain' && !scope.allowSubdomains && !scope.allowExternalLinks) return 'drop';
      if (where === 'site' && !scope.crawlEntireDomain && !url.pathname.startsWith(basePath)) return 'drop';
      if (scope.maxPathDepth !== undefined && pathDepth(url) - baseDepth > scope.maxPathDepth) return 'drop';
      if (scope.ignoreQueryParameters) {
        const path = `${url.origin}${url.pathname}`;
        if (seenPaths.has(path)) return 'drop';
        seenPaths.add(path);
      }
      if (scope.deduplicateSimilarURLs) {
        const key = similarKey(url);
        if (seenSimilar.has(key)) return 'drop';
        seenSimilar.add(key);
      }
      return 'follow';
    });
  };
}
