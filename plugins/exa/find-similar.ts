/**
 * POST /api/v1/exa/findSimilar: Exa's find-similar on the neural area's
 * similar-page search (services/neural-search/similar.ts); domain filters
 * apply to what it returns.
 */
import type { ExaServices } from './uses.js';
import type { z } from 'zod';
import type { CallContext } from '../../core/capability.js';
import { similarSearch } from '../../services/neural-search/similar.js';
import { passesDomains } from '../../services/web-search/domain-filter.js';
import { hostOf } from '../../services/web-search/hosts.js';
import { charsWanted, requestId, withContents } from './contents.js';
import type { ExaFindSimilarInput, exaFindSimilarOutputSchema } from './schemas.js';

/** Asked for beyond numResults, so that filtering afterwards still leaves enough. */
const SPARE = 5;

export async function exaFindSimilar(
  services: ExaServices,
  input: ExaFindSimilarInput,
  ctx: CallContext,
): Promise<z.infer<typeof exaFindSimilarOutputSchema>> {
  const filtering = input.excludeSourceDomain || input.includeDomains?.length || input.excludeDomains?.length;
  const found = await similarSearch(
    services,
    {
      url: input.url,
      num_results: Math.min(100, input.numResults + (filtering ? SPARE : 0)),
      exclude_source: true,
      timeout: 30,
    },
    ctx,
    { contentChars: charsWanted(input.contents), cutMark: '' },
  );
  const sourceHost = hostOf(input.url);
  const exclude = [...(input.excludeDomains ?? []), ...(input.excludeSourceDomain && sourceHost ? [sourceHost] : [])];
  const filter = {
    ...(input.includeDomains?.length ? { include: input.includeDomains } : {}),
    ...(exclude.length ? { exclude } : {}),
  };
  const pages = found.similar
    .filter((r) => passesDomains(r.url, filter))
    .slice(0, input.numResults)
    .map((r) => ({
      url: r.url,
      title: r.title,
      text: r.content,
      publishedDate: r.published_date,
      author: null,
      score: r.score,
    }));
  return {
    requestId: requestId(),
    results: await withContents(services, pages, found.queries[0] ?? '', input.contents, ctx),
    costDollars: { total: 0 },
  };
}
