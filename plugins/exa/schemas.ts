/**
 * Input and output shapes of the exa area. Requests and answers follow Exa's
 * wire format (camelCase), so the official exa-js client works unchanged.
 * Exa fields with no meaning here are declared as accepted with no effect;
 * nested option objects drop fields they do not know rather than refuse them.
 */
import { z } from 'zod';
import { domainFilterSchema, httpUrlSchema, isoDateSchema } from '../../core/field-schemas.js';

const accepted = 'Accepted for Exa compatibility; no effect';

const textOption = z.union([
  z.boolean(),
  z.object({
    maxCharacters: z.int().min(1).max(1_000_000).optional(),
    includeHtmlTags: z.boolean().optional().describe(accepted),
  }),
]);
const highlightsOption = z.union([
  z.boolean(),
  z.object({
    numSentences: z
      .int()
      .min(1)
      .max(10)
      .optional()
      .describe('Sentences per highlight: 1 scores single sentences, more scores passages of up to three'),
    highlightsPerUrl: z.int().min(1).max(10).optional(),
    query: z.string().trim().min(1).max(1000).optional(),
    maxCharacters: z.int().min(1).max(100_000).optional().describe(accepted),
  }),
]);
const summaryOption = z.union([
  z.boolean(),
  z.object({ query: z.string().trim().min(1).max(1000).optional(), schema: z.unknown().optional().describe(accepted) }),
]);

/** What each result carries besides its metadata (Exa's "contents" options). */
export const contentsOptionsSchema = z.object({
  text: textOption.optional(),
  highlights: highlightsOption.optional(),
  summary: summaryOption.optional(),
  livecrawl: z.string().max(20).optional().describe(accepted),
  livecrawlTimeout: z.number().optional().describe(accepted),
  maxAgeHours: z.number().optional().describe(accepted),
  subpages: z.number().optional().describe(accepted),
  extras: z.unknown().optional().describe(accepted),
});
export type ContentsOptions = z.infer<typeof contentsOptionsSchema>;

export const SEARCH_TYPES = ['auto', 'neural', 'keyword', 'fast', 'hybrid', 'deep', 'instant'] as const;

export const exaSearchInputSchema = z
  .strictObject({
    query: z.string().trim().min(1, 'must not be empty').max(2000),
    numResults: z.int().min(1).max(100).default(10),
    type: z
      .enum(SEARCH_TYPES)
      .default('auto')
      .describe('keyword and fast skip query expansion; the others expand the query (docs/exa.md)'),
    category: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe('news, research paper, financial report, github map to engine sets; others search the default engines'),
    includeDomains: z.array(domainFilterSchema).max(300).optional(),
    excludeDomains: z.array(domainFilterSchema).max(300).optional(),
    startPublishedDate: isoDateSchema.optional(),
    endPublishedDate: isoDateSchema.optional(),
    startCrawlDate: isoDateSchema.optional().describe(accepted),
    endCrawlDate: isoDateSchema.optional().describe(accepted),
    includeText: z
      .array(z.string().max(200))
      .max(10)
      .optional()
      .describe('Results whose text contains every phrase (case-insensitive)'),
    excludeText: z
      .array(z.string().max(200))
      .max(10)
      .optional()
      .describe('Results whose text contains none of the phrases'),
    useAutoprompt: z.boolean().optional().describe('false skips query expansion'),
    userLocation: z.string().max(10).optional().describe(accepted),
    moderation: z.boolean().optional().describe(accepted),
    contents: z
      .union([contentsOptionsSchema, z.literal(false), z.null()])
      .optional()
      .describe('Without it, results carry metadata only'),
  })
  .refine(
    (i) =>
      !(i.startPublishedDate && i.endPublishedDate) ||
      Date.parse(i.startPublishedDate) <= Date.parse(i.endPublishedDate),
    {
      message: 'startPublishedDate must not be after endPublishedDate',
      path: ['startPublishedDate'],
    },
  );
export type ExaSearchInput = z.infer<typeof exaSearchInputSchema>;

export const exaContentsInputSchema = contentsOptionsSchema
  .extend({
    urls: z.array(httpUrlSchema).min(1).max(100).optional(),
    ids: z.array(httpUrlSchema).min(1).max(100).optional().describe('Result ids, which are their URLs here'),
  })
  .strict()
  .refine((i) => (i.urls?.length ?? 0) + (i.ids?.length ?? 0) > 0, { message: 'give urls or ids', path: ['urls'] })
  .refine((i) => (i.urls?.length ?? 0) + (i.ids?.length ?? 0) <= 100, {
    message: 'at most 100 urls and ids together',
    path: ['urls'],
  });
export type ExaContentsInput = z.infer<typeof exaContentsInputSchema>;

export const exaFindSimilarInputSchema = z.strictObject({
  url: httpUrlSchema,
  numResults: z.int().min(1).max(100).default(10),
  excludeSourceDomain: z
    .boolean()
    .default(false)
    .describe("Also drop other pages of the source's domain (the source page itself is always dropped)"),
  includeDomains: z.array(domainFilterSchema).max(300).optional(),
  excludeDomains: z.array(domainFilterSchema).max(300).optional(),
  startPublishedDate: isoDateSchema.optional().describe(accepted),
  endPublishedDate: isoDateSchema.optional().describe(accepted),
  category: z.string().trim().max(100).optional().describe(accepted),
  contents: z.union([contentsOptionsSchema, z.literal(false), z.null()]).optional(),
});
export type ExaFindSimilarInput = z.infer<typeof exaFindSimilarInputSchema>;

export const exaResultSchema = z.object({
  id: z.string().describe('The URL (Exa ids are opaque; here a result is named by its URL)'),
  url: z.string(),
  title: z.string(),
  publishedDate: z.string().optional().describe('Absent when unknown, as Exa does'),
  author: z.string().optional().describe('Absent when unknown, as Exa does'),
  score: z.number().describe('0..1, higher is more relevant'),
  text: z.string().optional(),
  highlights: z.array(z.string()).optional(),
  highlightScores: z.array(z.number()).optional(),
  summary: z.string().optional().describe('Extractive (quoted sentences) unless an LLM is configured'),
});
export type ExaResult = z.infer<typeof exaResultSchema>;

export const exaSearchOutputSchema = z.object({
  requestId: z.string(),
  resolvedSearchType: z.string(),
  results: z.array(exaResultSchema),
  costDollars: z.object({ total: z.number() }).describe('Always 0: nothing is billed here'),
});

export const exaContentsOutputSchema = z.object({
  requestId: z.string(),
  results: z.array(exaResultSchema),
  statuses: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['success', 'error']),
      source: z
        .literal('crawled')
        .describe('Where the contents came from: every page is read when asked (no cached copies)'),
      error: z.object({ tag: z.string(), httpStatusCode: z.int().nullable(), message: z.string() }).optional(),
    }),
  ),
  costDollars: z.object({ total: z.number() }),
});

export const exaFindSimilarOutputSchema = z.object({
  requestId: z.string(),
  results: z.array(exaResultSchema),
  costDollars: z.object({ total: z.number() }),
});
