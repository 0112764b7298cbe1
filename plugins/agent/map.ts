/**
 * POST /api/v1/agent/map (Tavily's /map): the URLs of a site, found by
 * following links breadth-first. Only pages whose links are followed are
 * read (services.scraper.links: a static fetch, links parsed in the worker pool); URLs at max_depth
 * and links to other sites are listed without being fetched.
 */
import { responseTime } from './tavily-fields.js';
import type { AgentServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import type { PageRead } from '../../services/discover/site-crawl.js';
import type { AgentMapInput, AgentMapOutput } from './crawl-schemas.js';
import { failedResults, runSiteCrawl } from './crawl-run.js';
import { rankUrlsByInstructions } from './instructions.js';
import { requestId } from './search.js';

export async function agentMap(
  services: AgentServices,
  input: AgentMapInput,
  ctx: CallContext,
): Promise<AgentMapOutput> {
  const started = performance.now();
  const read = async (url: string, signal: AbortSignal): Promise<PageRead<null>> => {
    const { finalUrl, links } = await services.scraper.links(url, signal);
    return { finalUrl, links, value: null };
  };
  const crawl = await runSiteCrawl(services, input, ctx, { readAll: false, read });
  let urls = crawl.urls.map((entry) => entry.url);
  if (input.instructions) {
    const embedder = await services.semantic.embedderOrNull(ctx.logger);
    urls = (await rankUrlsByInstructions(input.instructions, urls, embedder, ctx.signal)).map((ranked) => ranked.url);
  }
  return {
    base_url: crawl.base_url,
    results: urls,
    response_time: responseTime(started),
    request_id: requestId(),
    failed_results: failedResults(crawl, false),
    timed_out: crawl.timedOut,
  };
}
