/**
 * A read page's links as the site crawl's candidates (site-crawl.ts): normalised, within URL bounds, not assets,
 * not seen yet, each once, checked against robots.txt, with the caller's decision and, best first, its rank.
 */
import { isAssetUrl, normaliseUrl } from './site-urls.js';
import { MAX_URL_LENGTH } from './url-collector.js';
import type { LinkDecision, PageRead, SiteCrawlOptions } from './crawl-types.js';

export interface Candidate {
  url: URL;
  decision: LinkDecision;
  refused: boolean;
  priority?: number;
}

/** What deciding on a page's links needs: the crawl's seen URLs, robots.txt, the caller's hooks. */
export interface Found<T> {
  seen: Set<string>;
  allowed: (urls: URL[]) => Promise<boolean[]>;
  options: Pick<SiteCrawlOptions<T>, 'decide' | 'rank' | 'onRobotsBlocked' | 'refusedLinks'>;
  signal: AbortSignal;
}

/** A read page's links as candidates. */
export async function candidatesOf<T>(page: PageRead<T>, pageUrl: URL, found: Found<T>): Promise<Candidate[]> {
  const unique = new Map<string, URL>();
  for (const href of page.links) {
    const url = normaliseUrl(href, pageUrl);
    if (!url || !mayTake(url, found.seen) || unique.has(url.href)) continue;
    unique.set(url.href, url);
  }
  const candidates = await checked([...unique.values()], found);
  const kept = candidates.filter((candidate) => candidate.decision !== 'drop');
  if (found.options.rank && kept.length > 0) {
    const scores = await found.options.rank(
      kept.map((candidate) => candidate.url),
      page,
      found.signal,
    );
    kept.forEach((candidate, i) => (candidate.priority = scores[i] ?? 0));
  }
  return candidates;
}

/** Where the page landed, as a URL to take, when it differs from the one asked for (listRedirects). */
export async function redirectOf<T>(
  page: PageRead<T>,
  task: { url: URL },
  found: Found<T>,
): Promise<Candidate | undefined> {
  const landed = normaliseUrl(page.finalUrl);
  if (!landed || landed.href === task.url.href || !mayTake(landed, found.seen)) return undefined;
  const [candidate] = await checked([landed], { ...found, options: { ...found.options, refusedLinks: 'skip' } });
  return candidate && candidate.decision !== 'drop' ? candidate : undefined;
}

function mayTake(url: URL, seen: Set<string>): boolean {
  return url.href.length <= MAX_URL_LENGTH && !isAssetUrl(url) && !seen.has(url.href);
}

/** robots.txt's answers (refused URLs reported, and kept in 'list' mode), then the caller's decisions. */
async function checked<T>(urls: URL[], found: Found<T>): Promise<Candidate[]> {
  if (urls.length === 0) return [];
  const answers = await found.allowed(urls);
  const refused = urls.filter((_, i) => !answers[i]);
  if (found.options.onRobotsBlocked && refused.length > 0) found.options.onRobotsBlocked(refused.map((u) => u.href));
  const listRefused = found.options.refusedLinks === 'list';
  const kept = urls.map((url, i) => ({ url, refused: !answers[i] })).filter((c) => listRefused || !c.refused);
  if (kept.length === 0) return [];
  const decisions = await found.options.decide(
    kept.map((candidate) => candidate.url),
    found.signal,
  );
  return kept.map((candidate, i) => ({ ...candidate, decision: decisions[i] ?? 'drop' }));
}

export function robotsRefusal(url: URL): { code: string; message: string } {
  return { code: 'ROBOTS_DISALLOWED', message: `robots.txt of ${url.origin} disallows ${url.href} for Quarry` };
}
