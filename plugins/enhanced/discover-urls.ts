/** POST /api/v1/enhanced/discover-urls: robots.txt, sitemaps, then in-site links (core/discover). */
import type { EnhancedServices } from './uses.js';
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { escapeMarkdownText } from '../../services/markdown/escape.js';
import { MAX_URL_LENGTH } from '../../services/discover/url-collector.js';

export const discoverInputSchema = z.strictObject({
  base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(MAX_URL_LENGTH),
  max_urls: z.int().min(1).max(10_000).default(100),
  pattern: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Glob over path+query (or the whole URL when it starts with http): * within a segment, ** across ' +
        'segments, ? one character, {a,b} alternatives',
    ),
  max_depth: z.int().min(0).max(10).default(3).describe('Extension: link hops from base_url'),
  timeout: z.int().min(1).max(300).default(60).describe('Extension: seconds for the whole discovery'),
});

const discoveredSchema = z.object({
  url: z.string(),
  source: z.enum(['sitemap', 'link']),
  lastmod: z.string().optional(),
  depth: z.int().optional(),
});

export const discoverOutputSchema = z.object({
  base_url: z.string(),
  urls: z.array(discoveredSchema),
  total_found: z.int(),
  sitemaps: z.array(z.string()),
  robots: z.object({ found: z.boolean(), sitemaps: z.array(z.string()) }),
  truncated: z.boolean(),
  errors: z.array(z.object({ url: z.string(), code: z.string(), message: z.string() })),
});

export function discoverUrlsCapability(services: EnhancedServices) {
  return defineCapability({
    id: 'enhanced.discover_urls',
    title: "Discover a site's URLs",
    description:
      'List the URLs of a site: robots.txt (respected) and its sitemaps (indexes and gzipped ones included), ' +
      'then in-site link crawling up to max_urls. Each URL says where it came from and its lastmod when ' +
      'known.',
    input: discoverInputSchema,
    output: discoverOutputSchema,
    http: { method: 'POST', path: '/api/v1/enhanced/discover-urls' },
    mcpTool: 'enhanced_discover_urls',
    readOnly: true,
    toMarkdown: (out) =>
      [
        `# ${out.urls.length} URLs on ${escapeMarkdownText(out.base_url)}${out.truncated ? ' (truncated)' : ''}`,
        '',
        ...out.urls.map((u) => `- ${escapeMarkdownText(`${u.url} (${u.source}${u.lastmod ? `, ${u.lastmod}` : ''})`)}`),
      ].join('\n'),
    handler(input, ctx) {
      return services.discovery.discoverUrls(
        {
          baseUrl: input.base_url,
          maxUrls: input.max_urls,
          ...(input.pattern !== undefined ? { pattern: input.pattern } : {}),
          maxDepth: input.max_depth,
          timeoutMs: input.timeout * 1000,
          signal: ctx.signal,
        },
        (p) =>
          ctx.progress({
            progress: p.found,
            total: input.max_urls,
            message: `${p.found} URLs found, ${p.fetched} documents read`,
          }),
      );
    },
  });
}
