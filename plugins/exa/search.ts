/**
 * POST /api/v1/exa/search: Exa's search on the neural search pipeline
 * (services/neural-search). keyword and fast skip query expansion; Exa's
 * categories map to the neural engine sets where one fits.
 */
import type { ExaServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { neuralSearch } from '../../services/neural-search/neural-search.js';
import type { NeuralCategory } from '../../services/neural-search/schemas.js';
import { charsWanted, requestId, withContents } from './contents.js';
import type { ExaSearchInput, exaSearchOutputSchema } from './schemas.js';
import type { z } from 'zod';

const CATEGORIES: Record<string, NeuralCategory> = {
  news: 'news',
  'research paper': 'academic',
  'financial report': 'finance',
  github: 'tech',
};

export function resolvedType(input: Pick<ExaSearchInput, 'type'>): 'neural' | 'keyword' | 'fast' {
  return input.type === 'keyword' || input.type === 'fast' ? input.type : 'neural';
}

function hasPhrases(text: string, include: string[] | undefined, exclude: string[] | undefined): boolean {
  const haystack = text.toLowerCase();
  return (
    (include ?? []).every((p) => haystack.includes(p.toLowerCase())) &&
    !(exclude ?? []).some((p) => haystack.includes(p.toLowerCase()))
  );
}

export async function exaSearch(
  services: ExaServices,
  input: ExaSearchInput,
  ctx: CallContext,
): Promise<z.infer<typeof exaSearchOutputSchema>> {
  const type = resolvedType(input);
  const category = input.category ? CATEGORIES[input.category.toLowerCase()] : undefined;
  const found = await neuralSearch(
    services,
    {
      query: input.query,
      num_results: input.numResults,
      use_autoprompt: type === 'neural' && input.useAutoprompt !== false,
      include_highlights: false,
      ...(input.includeDomains?.length ? { include_domains: input.includeDomains } : {}),
      ...(input.excludeDomains?.length ? { exclude_domains: input.excludeDomains } : {}),
      ...(input.startPublishedDate ? { start_published_date: input.startPublishedDate } : {}),
      ...(input.endPublishedDate ? { end_published_date: input.endPublishedDate } : {}),
      ...(category ? { category } : {}),
      timeout: 30,
      language: 'en',
    },
    ctx,
    { contentChars: charsWanted(input.contents), cutMark: '' },
  );
  const pages = found.results
    .map((r) => ({
      url: r.url,
      title: r.title,
      text: r.content,
      publishedDate: r.published_date,
      author: r.author,
      score: r.score,
    }))
    .filter((p) => hasPhrases(p.text, input.includeText, input.excludeText));
  return {
    requestId: requestId(),
    resolvedSearchType: type,
    results: await withContents(services, pages, input.query, input.contents, ctx),
    costDollars: { total: 0 },
  };
}
