/**
 * Input and output shapes of the agent area's crawl and map (Tavily's POST
 * /crawl and /map). Bounds: docs/agent.md, "Crawl and map". Like the other
 * agent routes, every Tavily field is declared: the ones with a meaning here
 * with it, the rest as accepted with no effect.
 */
import { z } from 'zod';
import { urlSchema } from './schemas.js';
import { pathPatternSchema } from '../../services/discover/path-pattern-schema.js';

export const CRAWL_LIMITS = {
  maxDepth: 5,
  maxBreadth: 500,
  limit: 500,
  patterns: 50,
  timeout: { min: 10, max: 150 },
} as const;

const accepted = (what: string) => `Accepted for Tavily compatibility; ${what}`;

const patternsSchema = (what: string) =>
  z.array(pathPatternSchema).max(CRAWL_LIMITS.patterns).optional().describe(what);

const crawlBoundsShape = {
  url: urlSchema.describe('Where the crawl starts (depth 0)'),
  max_depth: z.int().min(1).max(CRAWL_LIMITS.maxDepth).default(1).describe('Link hops from url'),
  max_breadth: z
    .int()
    .min(1)
    .max(CRAWL_LIMITS.maxBreadth)
    .default(20)
    .describe('New links taken from each page, in the order the page lists them'),
  limit: z.int().min(1).max(CRAWL_LIMITS.limit).default(50).describe('URLs returned in all'),
  instructions: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .describe(
      'Natural-language goal: results are ranked by passage relevance to it and unrelated ones dropped (docs/agent.md)',
    ),
  select_paths: patternsSchema(
    "Regular expressions over a URL's path and query: only URLs matching one are kept and followed",
  ),
  exclude_paths: patternsSchema(
    "Regular expressions over a URL's path and query: URLs matching one are neither kept nor followed",
  ),
  select_domains: patternsSchema(
    "Regular expressions over a URL's host name: only hosts matching one are kept, and their pages are followed",
  ),
  exclude_domains: patternsSchema(
    "Regular expressions over a URL's host name: hosts matching one are neither kept nor followed",
  ),
  allow_external: z
    .boolean()
    .default(true)
    .describe('Keep links to other sites (listed, or read by a crawl, but not followed further)'),
  timeout: z
    .number()
    .min(CRAWL_LIMITS.timeout.min)
    .max(CRAWL_LIMITS.timeout.max)
    .default(150)
    .describe('Seconds for the whole call; what was found in time is returned'),
  categories: z.array(z.string().max(60)).max(20).optional().describe(accepted('no effect')),
  include_usage: z.boolean().optional().describe(accepted('no effect (nothing is metered)')),
  async: z
    .boolean()
    .default(false)
    .describe('Extension: answer at once with a job id and status URL; the answer is kept with the job'),
};

export const agentMapInputSchema = z.strictObject(crawlBoundsShape);
export type AgentMapInput = z.infer<typeof agentMapInputSchema>;

export const agentCrawlInputSchema = z.strictObject({
  ...crawlBoundsShape,
  extract_depth: z
    .enum(['basic', 'advanced'])
    .default('basic')
    .describe('basic: static fetch; advanced: rendered with JavaScript'),
  format: z.enum(['markdown', 'text']).default('markdown').describe('raw_content as markdown or plain text'),
  include_images: z.boolean().default(false),
  include_favicon: z.boolean().default(false),
  chunks_per_source: z
    .int()
    .min(1)
    .max(5)
    .optional()
    .describe("With instructions: raw_content is the page's N passages most relevant to them (default 3)"),
});
export type AgentCrawlInput = z.infer<typeof agentCrawlInputSchema>;

const failedSchema = z
  .array(z.object({ url: z.string(), error: z.string() }))
  .describe('Extension: URLs taken but not read, with the reason');

export const agentCrawlOutputSchema = z.object({
  base_url: z.string(),
  results: z.array(
    z.object({
      url: z.string(),
      raw_content: z.string(),
      images: z.array(z.string()),
      favicon: z.string().optional().describe('With include_favicon, when the page has one (absent otherwise)'),
      title: z.string().nullable().describe('Extension'),
      depth: z.int().describe('Extension: link hops from base_url'),
      score: z
        .number()
        .optional()
        .describe("Extension (instructions): calibrated relevance 0..1 of the page's best passage"),
    }),
  ),
  response_time: z.number().describe('Seconds'),
  request_id: z.string(),
  failed_results: failedSchema,
  timed_out: z.boolean().describe('Extension: the timeout ended the crawl early; results hold what was read in time'),
});
export type AgentCrawlOutput = z.infer<typeof agentCrawlOutputSchema>;

export const agentMapOutputSchema = z.object({
  base_url: z.string(),
  results: z.array(z.string()),
  response_time: z.number().describe('Seconds'),
  request_id: z.string(),
  failed_results: failedSchema,
  timed_out: z.boolean().describe('Extension: the timeout ended the map early; results hold what was found in time'),
});
export type AgentMapOutput = z.infer<typeof agentMapOutputSchema>;
