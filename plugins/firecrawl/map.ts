/**
 * POST /v2/map and /v1/map: a site's URLs from the one discovery service
 * (robots.txt, sitemaps, in-site links; services/discover), `search` keeping
 * the URLs that contain its words. v2 answers `links` as `{url}` objects,
 * v1 as strings.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import type { FirecrawlServices } from './uses.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import { firecrawlUrlSchema } from './scrape-schema.js';

const accepted = 'Accepted for Firecrawl compatibility; no effect';
/** Discovery's own bounds (services/discover): the most URLs and link hops it takes. Firecrawl's map has no depth. */
const MAX_URLS_LIMIT = 10_000;
const MAX_DEPTH_LIMIT = 10;

export const mapInputSchema = z.strictObject({
  url: firecrawlUrlSchema,
  search: z.string().max(500).optional().describe('Keeps the URLs whose text holds every word'),
  limit: z.int().min(1).max(MAX_URLS_LIMIT).default(5000),
  sitemap: z.enum(['only', 'include', 'skip']).default('include').describe(accepted),
  ignoreSitemap: z.boolean().optional().describe(accepted),
  sitemapOnly: z.boolean().optional().describe(accepted),
  includeSubdomains: z.boolean().optional().describe(accepted),
  ignoreQueryParameters: z.boolean().default(true),
  timeout: z.int().min(1000).max(300_000).default(60_000),
  location: z.unknown().optional().describe(accepted),
  useIndex: z.boolean().optional().describe(accepted),
  origin: z.string().max(200).optional(),
  integration: z.string().max(200).nullable().optional(),
});
export type MapInput = z.infer<typeof mapInputSchema>;

/** The site's URLs as discovery finds them, filtered and cut as the request says. */
export async function mapSite(services: FirecrawlServices, input: MapInput, signal: AbortSignal): Promise<string[]> {
  const found = await services.discovery.discoverUrls({
    baseUrl: input.url,
    maxUrls: MAX_URLS_LIMIT,
    maxDepth: MAX_DEPTH_LIMIT,
    timeoutMs: input.timeout,
    signal,
  });
  // Firecrawl's search filter is a substring test on the URL, not a word match: its words are
  // cut at white space only and never stemmed, so "doc" keeps /docs/ (services/ranking/tokens.ts is for matching
  // words).
  const words = (input.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const links: string[] = [];
  for (const { url } of found.urls) {
    const kept = input.ignoreQueryParameters ? url.split('?')[0]! : url;
    if (seen.has(kept) || !words.every((word) => kept.toLowerCase().includes(word))) continue;
    seen.add(kept);
    links.push(kept);
    if (links.length >= input.limit) break;
  }
  return links;
}

export function mapCapability(services: FirecrawlServices, version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.map_${version}`,
    title: `Map a site (Firecrawl ${version})`,
    description:
      "Firecrawl's map: the URLs of a site from robots.txt, its sitemaps and in-site links (robots.txt " +
      'obeyed), optionally only those matching `search`.',
    input: mapInputSchema,
    output: z.object({
      success: z.literal(true),
      links: z.array(z.union([z.string(), z.object({ url: z.string() })])),
    }),
    http: { method: 'POST', ...firecrawlRoute(version, '/map'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(input, ctx) {
      const links = await mapSite(services, input, ctx.signal);
      return { success: true as const, links: version === 'v2' ? links.map((url) => ({ url })) : links };
    },
  });
}
