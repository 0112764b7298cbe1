/**
 * SearXNG's search API as its clients send and read it
 * (https://docs.searxng.org/dev/search_api.html): parameters arrive as text
 * (query string or form) and are typed by these schemas; the answer is
 * SearXNG's JSON shape. Empty values that clients send for "not set"
 * (`time_range=`, `categories=`, `safesearch=`) are accepted as not set.
 */
import { z } from 'zod';

export const searxngSearchInputSchema = z.strictObject({
  q: z.string().trim().min(1, 'must not be empty').max(2000).describe('The search query'),
  format: z
    .literal('json', { error: "only format=json is served here (SearXNG's html, csv and rss formats are not)" })
    .default('json')
    .describe('Answer format: json (the only one served)'),
  categories: z
    .array(z.string().max(64))
    .max(32)
    .optional()
    .describe(
      'Comma-separated SearXNG categories (general, news, images, videos, science, it, …); unknown ones are ignored',
    ),
  engines: z
    .array(z.string().max(64))
    .max(100)
    .optional()
    .describe('Comma-separated engine names; names Quarry does not have are listed in unresponsive_engines'),
  language: z.string().max(35).optional().describe('Language code such as en or de-DE; "all" or "auto" for any'),
  pageno: z.int().min(1).max(50).default(1).describe('Result page'),
  time_range: z.enum(['day', 'week', 'month', 'year', '']).optional(),
  safesearch: z.enum(['0', '1', '2', '']).optional().describe('0 off, 1 moderate, 2 strict'),
  timeout_limit: z.number().min(0.5).max(30).optional().describe('Seconds the engines get (default 4)'),
});
export type SearxngSearchInput = z.infer<typeof searxngSearchInputSchema>;

const searxngResultSchema = z.object({
  url: z.string(),
  title: z.string(),
  content: z.string(),
  engine: z.string(),
  engines: z.array(z.string()),
  positions: z.array(z.int()),
  score: z.number(),
  category: z.string(),
  template: z.string(),
  parsed_url: z.array(z.string()),
  publishedDate: z.string().nullable(),
  thumbnail: z.string().optional(),
  img_src: z.string().optional(),
});
export type SearxngResult = z.infer<typeof searxngResultSchema>;

export const searxngSearchOutputSchema = z.object({
  query: z.string(),
  number_of_results: z.int(),
  results: z.array(searxngResultSchema),
  answers: z.array(z.string()),
  corrections: z.array(z.string()),
  infoboxes: z.array(z.record(z.string(), z.unknown())),
  suggestions: z.array(z.string()),
  unresponsive_engines: z.array(z.tuple([z.string(), z.string()])).describe('[engine, reason] pairs'),
});
export type SearxngAnswer = z.infer<typeof searxngSearchOutputSchema>;

export const searxngConfigInputSchema = z.strictObject({});

const searxngEngineSchema = z.object({
  name: z.string(),
  shortcut: z.string(),
  categories: z.array(z.string()),
  enabled: z.boolean(),
  paging: z.boolean(),
  language_support: z.boolean(),
  safesearch: z.boolean(),
  time_range_support: z.boolean(),
  timeout: z.number(),
});

export const searxngConfigOutputSchema = z.object({
  instance_name: z.string(),
  version: z.string(),
  categories: z.array(z.string()),
  engines: z.array(searxngEngineSchema),
  plugins: z.array(z.unknown()),
  autocomplete: z.string(),
  safe_search: z.int(),
  default_locale: z.string(),
  default_theme: z.string(),
  locales: z.record(z.string(), z.string()),
  public_instance: z.boolean(),
});

export const searxngAutocompleteInputSchema = z.strictObject({
  q: z.string().trim().max(200).default('').describe('The partly typed query'),
  language: z.string().max(35).optional().describe('Language code such as en or de-DE'),
});

export const searxngAutocompleteOutputSchema = z.object({
  suggestions: z
    .tuple([z.string(), z.array(z.string())])
    .describe('[query, [suggestions…]], the OpenSearch suggestions form SearXNG answers'),
});
