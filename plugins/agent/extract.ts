/**
 * POST /api/v1/agent/extract: read up to 20 URLs. basic fetches the page;
 * advanced renders it with the browser (tables are kept in markdown either
 * way). One URL failing never fails the request: it is listed in
 * failed_urls / failed_results with its reason and flagged in results.
 */
import { responseTime } from './tavily-fields.js';
import type { AgentServices } from './uses.js';
import type { CallContext } from '../../core/capability.js';
import { rankPagePassages } from '../../services/ranking/page-passages.js';
import type { AgentExtractInput, AgentExtractOutput } from './schemas.js';
import { requestId } from './search.js';

const DEFAULT_CHUNKS = 3;

export async function agentExtract(
  services: AgentServices,
  input: AgentExtractInput,
  ctx: CallContext,
): Promise<AgentExtractOutput> {
  const started = performance.now();
  const advanced = input.extract_depth === 'advanced';
  // Without a browser, advanced falls back to a static fetch rather than failing every URL.
  const javascript = advanced && services.scraper.renderAvailable();
  if (advanced && !javascript)
    ctx.logger.warn('agent extract: no browser here; advanced extraction fetches pages without rendering');
  const timeoutMs = (input.timeout ?? (advanced ? 60 : 30)) * 1000;
  ctx.progress({ progress: 0, total: input.urls.length, message: `reading ${input.urls.length} pages` });
  const pages = await services.scraper.scrapeMany(input.urls, {
    javascript,
    timeoutMs,
    signal: ctx.signal,
    extract: {
      markdown: input.format === 'markdown',
      includeImages: input.include_images,
      includeLinks: false,
      media: input.include_favicon,
    },
  });

  const embedder = input.query ? await services.semantic.embedderOrNull(ctx.logger) : null;
  const reranker = input.query ? await services.models.passageReranker() : null;
  const read = pages.map((page) => page.success && page.text.trim().length > 0);
  const ranked = input.query
    ? await rankPagePassages(
        input.query,
        pages.filter((_, i) => read[i]).map((p) => ({ title: p.title, text: p.text })),
        embedder,
        { signal: ctx.signal, reranker },
      )
    : [];
  let rankedIndex = 0;

  const results: AgentExtractOutput['results'] = pages.map((page, i) => {
    const url = input.urls[i]!;
    if (!read[i]) {
      const error = page.failureReason ?? (page.success ? 'the page has no text' : 'extraction failed');
      return { url, title: page.title || null, raw_content: '', images: [], failed: true, error };
    }
    const passages = input.query ? ranked[rankedIndex++]!.passages : [];
    const rawContent = input.query
      ? passages
          .slice(0, input.chunks_per_source ?? DEFAULT_CHUNKS)
          .map((p) => p.text.trim())
          .join(' […] ')
      : input.format === 'markdown'
        ? page.markdown || page.text
        : page.text;
    const result: AgentExtractOutput['results'][number] = {
      url,
      title: page.title || null,
      raw_content: rawContent,
      images: input.include_images ? page.images : [],
      failed: false,
      error: null,
    };
    // Left out when unknown: Tavily's clients type favicon as an optional string.
    const favicon = input.include_favicon ? page.media?.favicon : null;
    if (favicon) result.favicon = favicon;
    return result;
  });
  const failed = results.filter((r) => r.failed);
  ctx.progress({
    progress: input.urls.length,
    total: input.urls.length,
    message: `${results.length - failed.length} read, ${failed.length} failed`,
  });
  return {
    results,
    failed_urls: failed.map((r) => r.url),
    failed_results: failed.map((r) => ({ url: r.url, error: r.error ?? 'failed' })),
    response_time: responseTime(started),
    request_id: requestId(),
    javascript_rendering: javascript,
  };
}
