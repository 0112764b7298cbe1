/**
 * POST /v2/crawl/params-preview: the crawl options a prompt turns into
 * (crawl-prompt.ts), without starting a crawl, so a caller can check them
 * first. Needs a language model; without one a 400 names the setting.
 */
import { z } from 'zod';
import { defineCapability } from '../../core/capability.js';
import { firecrawlUrlSchema } from './scrape-schema.js';
import { crawlOptionsModel, generateCrawlOptions } from './crawl-prompt.js';
import { firecrawlErrorReply } from './envelope.js';
import { firecrawlRoute } from './routes.js';
import type { FirecrawlServices } from './uses.js';

const previewInputSchema = z.strictObject({
  url: firecrawlUrlSchema,
  prompt: z.string().min(1).max(10_000).describe('What to crawl, in words'),
  origin: z.string().max(200).optional(),
  integration: z.string().max(200).nullable().optional(),
});

const previewOutputSchema = z.object({
  success: z.literal(true),
  data: z.looseObject({ url: z.string() }),
});

export function paramsPreviewCapability(services: FirecrawlServices) {
  return defineCapability({
    id: 'firecrawl.crawl_params_preview_v2',
    title: 'Crawl options from a prompt (Firecrawl v2)',
    description:
      'The crawl options (includePaths, excludePaths, maxDiscoveryDepth, limit, sitemap, crawlEntireDomain, …) the ' +
      'language model reads from a prompt, each checked as a crawl request checks it; no crawl is started.',
    input: previewInputSchema,
    output: previewOutputSchema,
    http: { method: 'POST', ...firecrawlRoute('v2', '/crawl/params-preview'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(input, ctx) {
      const model = crawlOptionsModel(services, 'prompt');
      const options = await generateCrawlOptions(model, { url: input.url, prompt: input.prompt, signal: ctx.signal });
      return { success: true as const, data: { url: input.url, ...options } };
    },
  });
}
