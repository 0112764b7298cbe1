/** Reading the site's robots.txt once: its Sitemap lines and, for the link crawl, its rules for Quarry. */
import { createRequire } from 'node:module';
import { toAppError, type AppError } from '../../core/errors.js';
import { normalizeHost } from '../../core/http/address-guard.js';
import type { DiscoveryRun } from './discovery-run.js';

interface RobotsRules {
  isAllowed(url: string, agent?: string): boolean | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS whose typings claim an ES default export (see core/http/robots-cache.ts).
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, contents: string) => RobotsRules;

/** Same product token as the outbound client's RobotsCache, so both read the same group. */
const ROBOTS_AGENT = 'Quarry';

export interface SiteRobots {
  found: boolean;
  sitemaps: string[];
  isAllowed(url: URL): boolean;
}

/**
 * Fetches <origin>/robots.txt. Missing, 4xx, 5xx or unreachable all mean
 * "no rules" (as RobotsCache treats them) and the last two add an error
 * entry; a refused address or a cancel is thrown, as base_url shares it.
 */
export async function readRobots(run: DiscoveryRun, origin: string): Promise<SiteRobots> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const response = await run.fetch(robotsUrl, 'robots', 'text/plain,*/*;q=0.1');
    if (response.status >= 500) run.recordStatus(robotsUrl, response.status);
    if (response.status < 200 || response.status >= 300) return noRobots();
    const rules = robotsParser(robotsUrl, response.body);
    return {
      found: true,
      sitemaps: [...new Set(rules.getSitemaps())],
      isAllowed: (url) => rules.isAllowed(url.href, ROBOTS_AGENT) !== false,
    };
  } catch (error) {
    const appError = toAppError(error);
    if (concernsBaseUrl(appError, origin) || run.signal.aborted) throw appError;
    run.recordError(robotsUrl, appError);
    return noRobots();
  }
}

/** A cancel, or the guard refusing the site's own host (not a host robots.txt redirected to): discovery cannot go on. */
function concernsBaseUrl(error: AppError, origin: string): boolean {
  if (error.code === 'CANCELLED' || error.code === 'INVALID_INPUT') return true;
  if (error.code !== 'FORBIDDEN_ADDRESS') return false;
  const refusedHost = (error.details as { host?: unknown } | undefined)?.host;
  return refusedHost === undefined || refusedHost === normalizeHost(new URL(origin).hostname);
}

function noRobots(): SiteRobots {
  return { found: false, sitemaps: [], isAllowed: () => true };
}
