/**
 * POST /v2/search and /v1/search on the one search service: `web` and `news`
 * through webSearch.search (the general and news engine plans), `images`
 * through the image search; with `scrapeOptions.formats`, each web result is
 * read by the one reader as a Document. v2 groups results by source, v1
 * answers a flat `data` of web results.
 */
import { z } from 'zod';
import { defineCapability, type CallContext } from '../../core/capability.js';
import type { FirecrawlServices } from './uses.js';
import { defaultImageEngine, searchImages } from '../../services/sources/images.js';
import { firecrawlErrorReply } from './envelope.js';
import { readDocuments } from './read-pages.js';
import { firecrawlRoute, type FirecrawlVersion } from './routes.js';
import { scrapeOptionsSchema } from './scrape-schema.js';

const accepted = 'Accepted for Firecrawl compatibility; no effect';
const SOURCES = ['web', 'news', 'images'] as const;
type Source = (typeof SOURCES)[number];

export const searchInputSchema = z.strictObject({
  query: z.string().trim().min(1, 'must not be empty').max(2000),
  limit: z.int().min(1).max(100).default(5),
  sources: z
    .array(z.union([z.enum(SOURCES), z.object({ type: z.enum(SOURCES) })]))
    .min(1)
    .max(3)
    .default(['web']),
  lang: z.string().max(10).default('en'),
  country: z.string().max(10).optional().describe(accepted),
  tbs: z
    .string()
    .max(100)
    .optional()
    .describe('qdr:d, qdr:w, qdr:m and qdr:y limit results to the last day, week, month or year'),
  filter: z.string().max(200).optional().describe(accepted),
  location: z.string().max(200).optional().describe(accepted),
  categories: z.array(z.unknown()).max(10).optional().describe(accepted),
  timeout: z.int().min(1000).max(300_000).default(60_000),
  ignoreInvalidURLs: z.boolean().optional().describe(accepted),
  scrapeOptions: scrapeOptionsSchema.partial({ formats: true }).optional(),
  origin: z.string().max(200).optional(),
  integration: z.string().max(200).nullable().optional(),
});
type SearchInput = z.infer<typeof searchInputSchema>;

const TIME_RANGES: Record<string, 'day' | 'week' | 'month' | 'year'> = {
  'qdr:d': 'day',
  'qdr:w': 'week',
  'qdr:m': 'month',
  'qdr:y': 'year',
};

type Item = Record<string, unknown>;

async function searchSource(
  services: FirecrawlServices,
  input: SearchInput,
  source: Source,
  ctx: CallContext,
): Promise<Item[]> {
  const language = input.lang.split('-')[0]!.toLowerCase();
  if (source === 'images') {
    const engine = defaultImageEngine(services.engines);
    if (!engine) return [];
    const { images } = await searchImages(services.webSearch, {
      query: input.query,
      engines: [engine],
      maxResults: input.limit,
      safeSearch: 1,
      language,
      deadline: performance.now() + input.timeout,
      signal: ctx.signal,
    });
    return images.map((image, i) => ({
      title: image.title,
      imageUrl: image.url,
      imageWidth: image.width,
      imageHeight: image.height,
      url: image.source_url,
      position: i + 1,
    }));
  }
  const timeRange = input.tbs ? TIME_RANGES[input.tbs] : undefined;
  const answer = await services.webSearch.search(
    serviceSearchInput(input, source === 'news' ? ['news'] : undefined, timeRange),
    ctx,
  );
  return answer.results.map((result, i) =>
    source === 'news'
      ? {
          title: result.title,
          url: result.url,
          snippet: result.snippet,
          ...(result.published_date ? { date: result.published_date } : {}),
          ...(result.thumbnail ? { imageUrl: result.thumbnail } : {}),
          position: i + 1,
        }
      : {
          url: result.url,
          title: result.title,
          description: result.snippet,
          position: i + 1,
          ...(result.category ? { category: result.category } : {}),
        },
  );
}

/** The search service's request for one source: no reading here (formats are read below, as Documents). */
function serviceSearchInput(
  input: SearchInput,
  categories: Array<'news'> | undefined,
  timeRange: 'day' | 'week' | 'month' | 'year' | undefined,
) {
  return {
    query: input.query,
    ...(categories ? { categories } : {}),
    max_results: input.limit,
    scrape_content: false,
    output_format: 'json' as const,
    language: input.lang.split('-')[0]!.toLowerCase(),
    safe_search: 'moderate' as const,
    cache_ttl: 3600,
    js_mode: false,
    relevance_filter: true,
    min_relevance_score: 0.15,
    include_images: false,
    include_links: false,
    timeout: Math.min(120, Math.ceil(input.timeout / 1000)),
    async_mode: false,
    ...(timeRange ? { time_range: timeRange } : {}),
    page: 1,
    explain: false,
  };
}

/** Web results with the Documents of their pages, when formats were asked for. */
async function withDocuments(
  services: FirecrawlServices,
  input: SearchInput,
  items: Item[],
  ctx: CallContext,
): Promise<Item[]> {
  const options = input.scrapeOptions;
  if (!options?.formats || options.formats.length === 0 || items.length === 0) return items;
  const read = await readDocuments(
    services,
    items.map((item) => item.url as string),
    scrapeOptionsSchema.parse(options),
    ctx,
  );
  return items.map((item, i) => {
    const outcome = read[i]!;
    return 'document' in outcome
      ? { ...outcome.document, ...item, metadata: outcome.document.metadata }
      : { ...item, metadata: { sourceURL: item.url, error: outcome.error.message, statusCode: 0 } };
  });
}

export function searchCapability(services: FirecrawlServices, version: FirecrawlVersion) {
  return defineCapability({
    id: `firecrawl.search_${version}`,
    title: `Search (Firecrawl ${version})`,
    description:
      "Firecrawl's search: web, news and images results from the configured engines; with " +
      "scrapeOptions.formats each web result's page is read as a Document.",
    input: searchInputSchema,
    output: z.object({
      success: z.literal(true),
      data: z.union([z.array(z.looseObject({})), z.record(z.string(), z.array(z.looseObject({})))]),
    }),
    http: { method: 'POST', ...firecrawlRoute(version, '/search'), errorReply: firecrawlErrorReply },
    readOnly: true,
    async handler(input, ctx) {
      await services.searchHistory.record(ctx.caller, [input.query]);
      const sources = [...new Set(input.sources.map((s) => (typeof s === 'string' ? s : s.type)))];
      if (version === 'v1')
        return {
          success: true as const,
          data: await withDocuments(services, input, await searchSource(services, input, 'web', ctx), ctx),
        };
      const data: Record<string, Item[]> = {};
      const failed: string[] = [];
      for (const source of sources) {
        // Web is the search itself; a news or images source that fails is named in warning, as an empty list.
        const items =
          source === 'web'
            ? await searchSource(services, input, source, ctx)
            : await searchSource(services, input, source, ctx).catch(
                (error: unknown) => (failed.push(`${source}: ${(error as Error).message}`), []),
              );
        data[source] = source === 'web' ? await withDocuments(services, input, items, ctx) : items;
      }
      return {
        success: true as const,
        data,
        creditsUsed: 0,
        ...(failed.length > 0 ? { warning: `sources that failed: ${failed.join('; ')}` } : {}),
      };
    },
  });
}
