/**
 * The site's robots.txt as discovery reads it: its Sitemap lines and, for the
 * link crawl, its rules for Quarry. It comes from the outbound client's one
 * robots.txt cache (core/http/robots-cache.ts), so a site's file is fetched
 * once for discovery and for the page fetches after it, decoded and reduced
 * in the worker pool (services/extract/robots-rules.ts), a large rule set
 * matched there.
 */
import { toAppError, type AppError } from '../../core/errors.js';
import { normalizeHost } from '../../core/http/address-guard.js';
import type { RobotsMatcher } from '../../core/http/robots-cache.js';
import type { DiscoveryRun } from './discovery-run.js';

export interface SiteRobots {
  found: boolean;
  sitemaps: string[];
  /**
   * Which of urls robots.txt lets Quarry fetch: only the site's own origin is asked (another origin's rules are the
   * outbound client's to apply when it fetches there).
   */
  allowed(urls: URL[], signal: AbortSignal): Promise<boolean[]>;
}

/**
 * Reads <origin>/robots.txt. Missing, 4xx, 5xx or unreachable all mean "no
 * rules" (as the page fetches treat them) and the last two add an error
 * entry; a refused address or a cancel is thrown, as base_url shares it.
 */
export async function readRobots(run: DiscoveryRun, origin: string): Promise<SiteRobots> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const robots = await run.robotsTxt(robotsUrl);
    if (robots.failure !== undefined) throw robots.failure;
    if (robots.status !== null && robots.status >= 500) run.recordStatus(robotsUrl, robots.status);
    if (!robots.rules || !robots.check) return noRobots();
    const sitemaps = [...new Set(robots.rules.sitemaps ?? [])];
    return { found: true, sitemaps, allowed: urlsAllowedBy(robots.check, origin) };
  } catch (error) {
    const appError = toAppError(error);
    if (concernsBaseUrl(appError, origin) || run.signal.aborted) throw appError;
    run.recordError(robotsUrl, appError);
    return noRobots();
  }
}

function urlsAllowedBy(check: RobotsMatcher, origin: string): SiteRobots['allowed'] {
  return async (urls, signal) => {
    const own = urls.filter((url) => url.origin === origin);
    const answers =
      own.length > 0
        ? await check(
            own.map((url) => url.href),
            signal,
          )
        : [];
    let next = 0;
    return urls.map((url) => (url.origin === origin ? answers[next++] !== false : true));
  };
}

/**
 * A cancel, or the guard refusing the site's own host (not a host robots.txt redirected to): discovery cannot go on.
 */
function concernsBaseUrl(error: AppError, origin: string): boolean {
  if (error.code === 'CANCELLED' || error.code === 'INVALID_INPUT') return true;
  if (error.code !== 'FORBIDDEN_ADDRESS') return false;
  const refusedHost = (error.details as { host?: unknown } | undefined)?.host;
  return refusedHost === undefined || refusedHost === normalizeHost(new URL(origin).hostname);
}

/** Every URL allowed: no robots.txt, or robots.txt not respected. */
export const allowEverything: SiteRobots['allowed'] = async (urls) => urls.map(() => true);

function noRobots(): SiteRobots {
  return { found: false, sitemaps: [], allowed: allowEverything };
}
