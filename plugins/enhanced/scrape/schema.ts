/** Input and output of POST /api/v1/enhanced/scrape (see docs/scrape.md). */
import { z } from 'zod';
import { httpUrlSchema } from '../../../core/field-schemas.js';
import { CACHE_MODES } from '../../../services/scrape/page-cache.js';

export { CACHE_MODES };

export const MAX_URLS = 50;
export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle0', 'networkidle2'] as const;
/** One hour: long enough to absorb an agent's repeated reads of a page, short enough for news pages to refresh. */
export const DEFAULT_CACHE_TTL_SECONDS = 3600;

export const scrapeInputSchema = z.strictObject({
  urls: z.array(httpUrlSchema).min(1, 'give at least one URL').max(MAX_URLS, `at most ${MAX_URLS} URLs per request`),
  extract_text: z.boolean().default(true),
  extract_images: z.boolean().default(true),
  extract_links: z.boolean().default(true),
  extract_metadata: z.boolean().default(true),
  javascript_rendering: z.boolean().default(false).describe('Render with headless Chromium (runs the page scripts)'),
  response_format: z
    .enum(['json', 'markdown'])
    .default('json')
    .describe('markdown: each page also carries `markdown`, and the answer a `markdown` document'),
  screenshot: z.boolean().default(false).describe('PNG of the rendered page, base64 (implies browser rendering)'),
  pdf: z.boolean().default(false).describe('The rendered page printed to PDF, base64 (implies browser rendering)'),
  include_html: z.boolean().default(false).describe('The raw HTML (after scripts, when rendered)'),
  wait_until: z
    .enum(WAIT_UNTIL)
    .optional()
    .describe('When a rendered page counts as loaded (implies browser rendering); default load'),
  cache_mode: z.enum(CACHE_MODES).default('enabled'),
  cache_ttl: z
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(DEFAULT_CACHE_TTL_SECONDS)
    .describe('Extension: seconds a page written to the cache stays there'),
  timeout: z
    .int()
    .min(1)
    .max(300)
    .default(60)
    .describe('Extension: seconds for the whole request; URLs not done by then fail with TIMEOUT'),
});

export type ScrapeInput = z.infer<typeof scrapeInputSchema>;

const metadataSchema = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  author: z.string().nullable(),
  published_date: z.string().nullable(),
  keywords: z.array(z.string()),
  site_name: z.string().nullable(),
  language: z.string().nullable(),
  canonical_url: z.string().nullable(),
  open_graph: z.record(z.string(), z.string()),
});

export const scrapedPageSchema = z.object({
  url: z.string(),
  final_url: z.string(),
  status: z.int().nullable().describe('HTTP status of the final response; null when none arrived'),
  title: z.string(),
  text: z.string().optional(),
  markdown: z.string().optional(),
  metadata: metadataSchema.optional(),
  images: z.array(z.string()).optional(),
  links: z.array(z.string()).optional().describe('Absolute URLs of the links on the page'),
  link_texts: z.array(z.string()).optional().describe('Extension: the anchor text of each link, in the order of links'),
  html: z.string().optional(),
  screenshot: z.string().optional().describe('base64 PNG'),
  pdf: z.string().optional().describe('base64 PDF'),
  word_count: z.int(),
  content_quality_score: z.number(),
  extraction_success: z.boolean(),
  extraction_time_ms: z
    .int()
    .describe(
      'Time spent getting this page (fetch or render, and extraction), failed pages included; near 0 from the cache',
    ),
  failure_reason: z.string().nullable(),
  error_code: z.string().nullable(),
  rendered: z.boolean().describe('Whether headless Chromium produced the page'),
  from_cache: z.boolean(),
  cached_at: z.string().nullable(),
  timing: z.object({ total_ms: z.int(), fetch_ms: z.int(), extract_ms: z.int() }),
});

export type ScrapedPageOut = z.infer<typeof scrapedPageSchema>;

export const failedUrlSchema = z.object({ url: z.string(), error_code: z.string(), reason: z.string() });

export const scrapeOutputSchema = z.object({
  request_id: z.string(),
  scraped_content: z.array(scrapedPageSchema),
  metadata: z.object({
    total_urls: z.int(),
    successful: z.int(),
    failed: z.int(),
    failed_urls: z.array(failedUrlSchema),
    cache_hits: z.int(),
    cache_mode: z.enum(CACHE_MODES),
    rendered: z.boolean(),
    processing_time_ms: z.int(),
  }),
  markdown: z.string().optional(),
});

export type ScrapeOutput = z.infer<typeof scrapeOutputSchema>;
