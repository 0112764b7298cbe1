/** POST /v2/scrape and /v1/scrape: one URL read by the one reader, answered as a Document. */
import { defineCapability } from '../../core/capability.js';
import type { FirecrawlServices } from './uses.js';
import { firecrawlErrorReply } from './envelope.js';
import { readDocuments } from './read-pages.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import { scrapeInputSchema, scrapeOutputSchema, V2_DEFAULT_MAX_AGE_MS } from './scrape-schema.js';

export function scrapeCapability(services: FirecrawlServices, version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.scrape_${version}`,
    title: `Scrape (Firecrawl ${version})`,
    description:
      "Firecrawl's scrape: one URL read (robots.txt first, page cache by maxAge/storeInCache) and answered " +
      'in the formats asked for — ' +
      'markdown, html, rawHtml, links, images, screenshot, summary, json (with a language model) — with ' +
      "Firecrawl's metadata.",
    input: scrapeInputSchema(version === 'v2' ? V2_DEFAULT_MAX_AGE_MS : 0),
    output: scrapeOutputSchema,
    http: { method: 'POST', ...firecrawlRoute(version, '/scrape'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(input, ctx) {
      const { url, ...options } = input;
      const [outcome] = await readDocuments(services, [url], options, ctx);
      if ('error' in outcome!) throw outcome.error;
      return { success: true as const, data: outcome!.document };
    },
  });
}
