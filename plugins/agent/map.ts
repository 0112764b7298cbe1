/**
 * POST /api/v1/agent/map (Tavily's /map): the URLs of a site, found by
 * following links breadth-first. Only pages whose links are followed are
 * fetched (static fetch, links parsed in the worker pool); URLs at max_depth
 * and links to other sites are listed without being fetched.
 */
import type { CallContext } from '../../core/capability.js';
import { AppError } from '../../core/errors.js';
import type { PluginServices } from '../../app/plugin-services.js';
import { isHtml } from '../../services/discover/page-links.js';
import type { PageRead } from '../../services/discover/site-crawl.js';
import type { AgentMapInput, AgentMapOutput } from './crawl-schemas.js';
import { failedResults, runSiteCrawl } from './crawl-run.js';
import { rankUrlsByInstructions } from './instructions.js';
import { embedderOrNull, requestId } from './search.js';

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export async function agentMap(services: PluginServices, input: AgentMapInput, ctx: CallContext): Promise<AgentMapOutput> {
  const started = performance.now();
  const read = async (url: string, signal: AbortSignal): Promise<PageRead<null>> => {
    const response = await services.outbound.fetch({ url, purpose: 'page', headers: { accept: PAGE_ACCEPT }, signal });
    if (response.status < 200 || response.status >= 300) throw new AppError('UPSTREAM_FAILED', `HTTP ${response.status}`);
    const links = isHtml(response.headers['content-type']) ? await services.parsing.links(response.body, response.url, signal) : [];
    return { finalUrl: response.url, links, value: null };
  };
  const crawl = await runSiteCrawl(services, input, ctx, { readAll: false, read });
  let urls = crawl.urls.map((entry) => entry.url);
  if (input.instructions) {
    const embedder = await embedderOrNull(services, ctx);
    urls = (await rankUrlsByInstructions(input.instructions, urls, embedder, ctx.signal)).map((ranked) => ranked.url);
  }
  return {
    base_url: crawl.base_url,
    results: urls,
    response_time: Math.round(performance.now() - started) / 1000,
    request_id: requestId(),
    failed_results: failedResults(crawl, false),
    timed_out: crawl.timedOut,
  };
}
