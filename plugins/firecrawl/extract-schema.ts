/** The wire shapes of Firecrawl's extract (v2 and v1 alike): the request, the started answer and the status. */
import { z } from 'zod';
import { boundedMap } from '../../core/field-schemas.js';
import { firecrawlUrlSchema, scrapeOptionsShape } from './scrape-schema.js';

const accepted = 'Accepted for Firecrawl compatibility; no effect';

/** Pages one extract reads: the reader's lanes take them side by side, and the model reads them in one prompt. */
export const MAX_EXTRACT_URLS = 20;

export function extractInputSchema(defaultMaxAgeMs: number) {
  return z
    .strictObject({
      urls: z.array(firecrawlUrlSchema).min(1).max(MAX_EXTRACT_URLS),
      prompt: z.string().max(10_000).optional(),
      schema: boundedMap(200, undefined, 200).optional(),
      systemPrompt: z.string().max(10_000).optional(),
      scrapeOptions: z.object(scrapeOptionsShape(defaultMaxAgeMs)).optional(),
      showSources: z.boolean().default(false),
      enableWebSearch: z.boolean().optional().describe(accepted),
      allowExternalLinks: z.boolean().optional().describe(accepted),
      includeSubdomains: z.boolean().optional().describe(accepted),
      ignoreSitemap: z.boolean().optional().describe(accepted),
      ignoreInvalidURLs: z.boolean().optional().describe(accepted),
      agent: z.unknown().optional().describe(accepted),
      origin: z.string().max(200).optional().describe('Sent by the clients; no effect'),
      integration: z.string().max(200).nullable().optional().describe('Sent by tools built on Firecrawl; no effect'),
    })
    .refine((input) => input.prompt !== undefined || input.schema !== undefined, {
      message: 'prompt or schema is required: say what to extract',
      path: ['prompt'],
    });
}
export type ExtractInput = z.infer<ReturnType<typeof extractInputSchema>>;

export const extractStartedSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  urlTrace: z.array(z.unknown()),
  warning: z.string().optional(),
});

export const extractStatusWords = ['processing', 'completed', 'failed', 'cancelled'] as const;

export const extractStatusSchema = z.object({
  success: z.boolean(),
  status: z.enum(extractStatusWords),
  data: z.unknown(),
  expiresAt: z.string(),
  error: z.string().optional(),
  warning: z.string().optional(),
  /**
   * With showSources: v1 the URLs read; v2 Firecrawl's field → URLs map, every field under "*" (one prompt reads all
   * pages).
   */
  sources: z.union([z.array(z.string()), z.record(z.string(), z.array(z.string()))]).optional(),
});

export const extractIdInputSchema = z.strictObject({ id: z.string().min(1).max(100) });

/** What a finished extract job keeps as its result. */
export interface ExtractResult {
  data: unknown;
  sources: string[];
  warning?: string;
}
