/**
 * The bodies of Firecrawl's crawl and batch scrape (v2 and v1 names), and the
 * answers of their status, errors and active routes. Options with no meaning
 * here are accepted and have no effect, as for scrape (scrape-schema.ts).
 */
import { z } from 'zod';
import { boundedMap, httpUrlSchema } from '../../core/field-schemas.js';
import { documentSchema, firecrawlUrlSchema, scrapeOptionsShape, V2_DEFAULT_MAX_AGE_MS } from './scrape-schema.js';
import { pathPatternSchema } from '../../services/discover/path-pattern-schema.js';

const accepted = 'Accepted for Firecrawl compatibility; no effect';

/** The most pages one crawl takes (Firecrawl's default limit), and URLs one batch reads. */
export const MAX_CRAWL_LIMIT = 10_000;
export const MAX_BATCH_URLS = 1000;

const pathPatternsSchema = z.array(pathPatternSchema).max(50).optional();

/** `webhook`: a URL, or `{url, headers, metadata, events}`. */
export const webhookSchema = z.union([
  httpUrlSchema,
  z.object({
    url: httpUrlSchema,
    headers: boundedMap(50, z.string().max(8192), 200).optional(),
    metadata: boundedMap(50, z.unknown(), 200).optional(),
    events: z
      .array(z.enum(['completed', 'failed', 'page', 'started']))
      .max(4)
      .optional(),
  }),
]);
export type WebhookInput = z.infer<typeof webhookSchema>;

function scrapeOptionsOf(defaultMaxAgeMs: number) {
  return z.object(scrapeOptionsShape(defaultMaxAgeMs)).prefault({});
}

/** Longest pause between two page reads a crawl may ask for (`delay`, seconds). */
export const MAX_CRAWL_DELAY_SECONDS = 600;

/**
 * The crawl options a `prompt` may set (v2; crawl-prompt.ts). They have no zod default, so a field the caller
 * set can be told from one left out: a set field overrides the generated one, and the defaults are applied after
 * (crawlJobInput in crawl.ts).
 */
export const promptableCrawlShape = {
  includePaths: pathPatternsSchema.describe(
    'Only URLs whose path matches one of these are taken (regexOnFullURL: the whole URL)',
  ),
  excludePaths: pathPatternsSchema.describe('URLs whose path matches one of these are not taken'),
  regexOnFullURL: z.boolean().optional().describe('includePaths/excludePaths match the whole URL; default false'),
  limit: z.int().min(1).max(MAX_CRAWL_LIMIT).optional().describe(`Pages taken in all; default ${MAX_CRAWL_LIMIT}`),
  maxDiscoveryDepth: z.int().min(0).max(MAX_CRAWL_LIMIT).optional().describe('Link hops from url; no bound by default'),
  crawlEntireDomain: z.boolean().optional().describe("Beyond the start URL's path: the whole site; default false"),
  allowExternalLinks: z.boolean().optional().describe('Links to other sites are taken too; default false'),
  allowSubdomains: z.boolean().optional().describe("Links to the site's subdomains are taken too; default false"),
  ignoreQueryParameters: z
    .boolean()
    .optional()
    .describe('A URL that differs from one taken only in its query is not taken; default false'),
  deduplicateSimilarURLs: z
    .boolean()
    .optional()
    .describe(
      'URLs that differ only in www., http/https, a trailing slash or index.html/index.php are one page; default true',
    ),
  delay: z
    .number()
    .min(0)
    .max(MAX_CRAWL_DELAY_SECONDS)
    .optional()
    .describe('Seconds between two page reads; reads one page at a time'),
};

/** What both versions of crawl take under the same names. */
const crawlCommonShape = {
  url: firecrawlUrlSchema,
  ...promptableCrawlShape,
  ignoreRobotsTxt: z.boolean().optional().describe('Not honoured: robots.txt is always obeyed'),
  robotsUserAgent: z
    .string()
    .max(500)
    .optional()
    .describe("Not honoured: robots.txt is read for Quarry's own user agent"),
  maxConcurrency: z.int().min(1).optional().describe('Pages read at once, at most 8'),
  webhook: webhookSchema.optional(),
  zeroDataRetention: z.boolean().optional().describe(accepted),
  origin: z.string().max(200).optional(),
  integration: z.string().max(200).nullable().optional(),
};

export const crawlSitemapSchema = z.enum(['skip', 'include', 'only']);
export type CrawlSitemapMode = z.infer<typeof crawlSitemapSchema>;

export const crawlV2InputSchema = z.strictObject({
  ...crawlCommonShape,
  prompt: z
    .string()
    .min(1)
    .max(10_000)
    .optional()
    .describe('What to crawl, in words: a language model turns it into these options; a set option wins'),
  sitemap: crawlSitemapSchema
    .optional()
    .describe("The site's sitemaps: include (default) adds their URLs, only takes nothing else, skip ignores them"),
  scrapeOptions: scrapeOptionsOf(V2_DEFAULT_MAX_AGE_MS),
});

export const crawlV1InputSchema = z.strictObject({
  ...crawlCommonShape,
  maxDepth: z
    .int()
    .min(0)
    .max(MAX_CRAWL_LIMIT)
    .default(10)
    .describe("Path segments a taken URL may have beyond the start URL's (Firecrawl v1's meaning)"),
  allowBackwardLinks: z.boolean().default(false).describe('v1 name of crawlEntireDomain'),
  ignoreSitemap: z.boolean().default(false).describe("Leave the site's sitemaps out (their URLs are added otherwise)"),
  scrapeOptions: scrapeOptionsOf(0),
});

export type CrawlV2Input = z.infer<typeof crawlV2InputSchema>;
export type CrawlV1Input = z.infer<typeof crawlV1InputSchema>;

/** v2 leaves invalid URLs out by default, v1 refuses them (its `ignoreInvalidURLs` defaults to false). */
export function batchInputSchema(defaultMaxAgeMs: number, ignoreInvalidByDefault: boolean) {
  return z.strictObject({
    urls: z
      .array(z.string().max(4096))
      .min(1)
      .max(MAX_BATCH_URLS)
      .describe('The pages to read; a scheme is added when missing'),
    ...scrapeOptionsShape(defaultMaxAgeMs),
    ignoreInvalidURLs: z
      .boolean()
      .default(ignoreInvalidByDefault)
      .describe('Leave out URLs that are not http(s) URLs (answered in invalidURLs) instead of refusing the batch'),
    webhook: webhookSchema.optional(),
    appendToId: z.string().max(200).optional().describe(accepted),
    maxConcurrency: z.int().min(1).optional().describe(accepted),
  });
}
export type BatchInput = z.infer<ReturnType<typeof batchInputSchema>>;

/** GET …/:id: the job, and which of its documents (`skip` from the first, at most `limit`). */
/** A crawl's or batch scrape's id as the routes take it (the job ids this area generates). */
const jobIdSchema = z
  .string()
  .max(80)
  .regex(/^(crawl|batch)_[a-f0-9]{8,64}$/, 'must be a crawl or batch scrape id like crawl_…');

export const statusInputSchema = z.strictObject({
  id: jobIdSchema,
  skip: z.int().min(0).default(0),
  limit: z.int().min(1).max(MAX_CRAWL_LIMIT).optional(),
});
export const jobIdInputSchema = z.strictObject({ id: jobIdSchema });

export const crawlStatusWordSchema = z.enum(['scraping', 'completed', 'failed', 'cancelled']);
export type CrawlStatusWord = z.infer<typeof crawlStatusWordSchema>;

export const crawlStatusOutputSchema = z.object({
  success: z.literal(true),
  status: crawlStatusWordSchema,
  completed: z.int(),
  total: z.int(),
  creditsUsed: z.int(),
  expiresAt: z.string(),
  next: z.string().optional(),
  data: z.array(documentSchema),
  error: z.string().optional(),
});

export const crawlStartedSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  url: z.string(),
  invalidURLs: z.array(z.string()).optional(),
});

export const crawlErrorsOutputSchema = z.object({
  errors: z.array(
    z.object({ id: z.string(), timestamp: z.string(), url: z.string(), code: z.string(), error: z.string() }),
  ),
  robotsBlocked: z.array(z.string()),
});

export const cancelOutputSchema = z.object({ success: z.literal(true), status: crawlStatusWordSchema });

export const activeCrawlsOutputSchema = z.object({
  success: z.literal(true),
  crawls: z.array(
    z.object({ id: z.string(), teamId: z.string(), url: z.string(), created_at: z.string(), options: z.unknown() }),
  ),
});
