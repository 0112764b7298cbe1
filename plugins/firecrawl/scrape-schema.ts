/**
 * Firecrawl's scrape options (the body of /scrape, `scrapeOptions` of crawl
 * and search, the flattened options of batch scrape), in Firecrawl's wire
 * names. Options with no meaning here are accepted and have no effect (the
 * clients send them on every call); nested objects drop fields they do not
 * know rather than refuse them, as the HTTP host drops unknown top-level ones.
 */
import { z } from 'zod';
import { boundedMap, httpUrlSchema } from '../../core/field-schemas.js';

const accepted = 'Accepted for Firecrawl compatibility; no effect';

/** Firecrawl's free-form objects (JSON schemas, headers, actions) take keys of up to 200 characters. */
const FIRECRAWL_KEY_LENGTH = 200;
const firecrawlMap = <V extends z.ZodType = z.ZodUnknown>(maxKeys: number, values?: V) =>
  boundedMap(maxKeys, values, FIRECRAWL_KEY_LENGTH);

/** Firecrawl adds a scheme to a URL given without one. */
export const firecrawlUrlSchema = z.preprocess(
  (value) =>
    typeof value === 'string' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? `http://${value.trim()}` : value,
  httpUrlSchema,
);

/** A format by name, or as `{type, …options}` (v2). */
const formatObjectSchema = z.object({
  type: z.string().min(1).max(40),
  fullPage: z.boolean().optional(),
  quality: z.number().optional().describe(accepted),
  schema: firecrawlMap(200).optional(),
  prompt: z.string().max(10_000).optional(),
  systemPrompt: z.string().max(10_000).optional(),
  modes: z.array(z.string().max(20)).max(4).optional(),
  tag: z.string().max(200).nullable().optional(),
});
export const formatSchema = z.union([z.string().min(1).max(40), formatObjectSchema]);
export type FormatInput = z.infer<typeof formatSchema>;

const llmOptionsSchema = z.object({
  schema: firecrawlMap(200).optional(),
  prompt: z.string().max(10_000).optional(),
  systemPrompt: z.string().max(10_000).optional(),
});

/** The scrape options every endpoint that reads pages shares; `maxAge`'s default differs between v1 and v2. */
export function scrapeOptionsShape(defaultMaxAgeMs: number) {
  return {
    formats: z.array(formatSchema).max(20).default(['markdown']),
    onlyMainContent: z.boolean().default(true),
    includeTags: z.array(z.string().max(200)).max(100).optional(),
    excludeTags: z.array(z.string().max(200)).max(100).optional(),
    headers: firecrawlMap(100, z.string().max(8192)).optional(),
    waitFor: z.int().min(0).max(60_000).default(0),
    mobile: z.boolean().default(false),
    timeout: z.int().min(1000).max(300_000).default(30_000).describe('Milliseconds for the whole read'),
    maxAge: z
      .int()
      .min(0)
      .default(defaultMaxAgeMs)
      .describe('A cached read of the page at most this many milliseconds old is served; 0 reads it afresh'),
    storeInCache: z.boolean().default(true).describe('Whether this read is kept in the page cache'),
    actions: z.array(firecrawlMap(200)).max(50).optional(),
    jsonOptions: llmOptionsSchema.optional().describe("v1: the json format's schema and prompt"),
    extract: llmOptionsSchema.optional().describe("v1 (older): the extract format's schema and prompt"),
    changeTrackingOptions: z
      .object({
        modes: z.array(z.string().max(20)).max(4).optional(),
        schema: firecrawlMap(200).optional(),
        prompt: z.string().max(10_000).optional(),
        tag: z.string().max(200).nullable().optional(),
      })
      .optional(),
    location: z.unknown().optional().describe(accepted),
    proxy: z.string().max(20).optional().describe(accepted),
    parsers: z.unknown().optional().describe(accepted),
    skipTlsVerification: z.boolean().optional().describe(accepted),
    removeBase64Images: z.boolean().optional().describe(accepted),
    blockAds: z.boolean().optional().describe(accepted),
    fastMode: z.boolean().optional().describe(accepted),
    zeroDataRetention: z.boolean().optional().describe(accepted),
    origin: z.string().max(200).optional().describe('Sent by the clients; no effect'),
    integration: z.string().max(200).nullable().optional().describe('Sent by tools built on Firecrawl; no effect'),
  };
}

/** Two days, v2's default `maxAge` (docs.firecrawl.dev/migrate-to-v2); v1 reads afresh by default. */
export const V2_DEFAULT_MAX_AGE_MS = 172_800_000;

export const scrapeOptionsSchema = z.object(scrapeOptionsShape(V2_DEFAULT_MAX_AGE_MS));
export type ScrapeOptionsInput = z.infer<typeof scrapeOptionsSchema>;

export function scrapeInputSchema(defaultMaxAgeMs: number) {
  return z.strictObject({ url: firecrawlUrlSchema, ...scrapeOptionsShape(defaultMaxAgeMs) });
}

/** A Firecrawl Document (loose: the fields present depend on the formats asked for). */
export const documentSchema = z.looseObject({
  markdown: z.string().optional(),
  html: z.string().optional(),
  rawHtml: z.string().optional(),
  links: z.array(z.string()).optional(),
  images: z.array(z.string()).optional(),
  screenshot: z.string().optional(),
  summary: z.string().optional(),
  json: z.unknown().optional(),
  changeTracking: z.unknown().optional(),
  actions: z.unknown().optional(),
  warning: z.string().optional(),
  metadata: z.looseObject({
    sourceURL: z.string(),
    url: z.string(),
    statusCode: z.int(),
    scrapeId: z.string(),
    cacheState: z.enum(['hit', 'miss']),
    contentType: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
    error: z.string().optional(),
  }),
});
export type FirecrawlDocument = z.infer<typeof documentSchema>;

export const scrapeOutputSchema = z.object({ success: z.literal(true), data: documentSchema });
