/**
 * Reading the site's robots.txt once: its Sitemap lines and, for the link
 * crawl, its rules for Quarry. The file is decoded and reduced to our rules in
 * the worker pool (services/extract/robots-rules.ts), as the outbound client's
 * RobotsCache reads it; a small rule set is matched here, a large one there.
 */
import { toAppError, type AppError } from '../../core/errors.js';
import { normalizeHost } from '../../core/http/address-guard.js';
import { ROBOTS_AGENT, robotsMatcher } from '../../core/http/robots-cache.js';
import { bodyBytes } from '../extract/page-content.js';
import type { DiscoveryRun } from './discovery-run.js';
import type { RobotsFileReader } from './types.js';

export interface SiteRobots {
  found: boolean;
  sitemaps: string[];
  /** Which of urls robots.txt lets Quarry fetch. */
  allowed(urls: URL[], signal: AbortSignal): Promise<boolean[]>;
}

/**
 * Fetches <origin>/robots.txt. Missing, 4xx, 5xx or unreachable all mean
 * "no rules" (as RobotsCache treats them) and the last two add an error
 * entry; a refused address or a cancel is thrown, as base_url shares it.
 */
export async function readRobots(run: DiscoveryRun, origin: string, reader: RobotsFileReader): Promise<SiteRobots> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const response = await run.fetch(robotsUrl, 'robots', 'text/plain,*/*;q=0.1');
    if (response.status >= 500) run.recordStatus(robotsUrl, response.status);
    if (response.status < 200 || response.status >= 300) return noRobots();
    const { bytes, contentTypeHeader } = bodyBytes(response);
    const file = await reader.robotsRules(bytes, contentTypeHeader, ROBOTS_AGENT, run.signal);
    const matches = robotsMatcher(robotsUrl, file, ROBOTS_AGENT, reader);
    return {
      found: true,
      sitemaps: [...new Set(file.sitemaps)],
      allowed: (urls, signal) =>
        matches(
          urls.map((url) => url.href),
          signal,
        ),
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

/** Every URL allowed: no robots.txt, or robots.txt not respected. */
export const allowEverything: SiteRobots['allowed'] = async (urls) => urls.map(() => true);

function noRobots(): SiteRobots {
  return { found: false, sitemaps: [], allowed: allowEverything };
}
