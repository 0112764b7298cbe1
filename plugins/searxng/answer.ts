/**
 * A Quarry search answer in SearXNG's JSON shape. Quarry has no instant
 * answers, infoboxes, spelling corrections or suggestions, so those lists are
 * empty; engines that failed (and names Quarry does not know) are reported as
 * SearXNG reports unresponsive engines, [engine, reason].
 */
import type { SearchAnswer, SearchResultItem } from '../../services/web-search/schemas.js';
import { searxngCategory } from './categories.js';
import type { SearxngAnswer, SearxngResult } from './schemas.js';

/** SearXNG's wording for the failures its clients show. */
const REASONS: Record<string, string> = {
  TIMEOUT: 'timeout',
  UPSTREAM_FAILED: 'HTTP error',
  UNREACHABLE: 'connection error',
  ENGINE_CAPTCHA: 'CAPTCHA',
  ENGINE_RATE_LIMITED: 'too many requests',
  ENGINE_ACCESS_DENIED: 'access denied',
  ENGINE_PARSE_ERROR: 'parsing error',
  ENGINE_SUSPENDED: 'suspended',
  ENGINE_DISABLED: 'disabled',
};

export interface AnswerContext {
  /** The main category of an engine, Quarry's name. */
  categoryOf(engine: string): string | undefined;
  unknownEngines: string[];
}

export function toSearxngAnswer(answer: SearchAnswer, context: AnswerContext): SearxngAnswer {
  const meta = answer.search_metadata;
  return {
    query: meta.query,
    number_of_results: meta.total_results_found,
    results: answer.results.map((item) => toSearxngResult(item, context)),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [
      ...meta.engines_failed.map((engine): [string, string] => {
        const error = meta.engine_errors[engine];
        return [engine, (error && REASONS[error.code]) ?? error?.message ?? 'error'];
      }),
      ...context.unknownEngines.map((engine): [string, string] => [engine, 'unknown engine']),
    ],
  };
}

function toSearxngResult(item: SearchResultItem, context: AnswerContext): SearxngResult {
  const category = searxngCategory(item.category ?? context.categoryOf(item.engine) ?? 'general');
  const result: SearxngResult = {
    url: item.url,
    title: item.title,
    content: item.snippet,
    engine: item.engine,
    engines: item.engines,
    positions: item.explanation?.contributions.map((c) => c.position) ?? [item.rank],
    score: item.score,
    category,
    template: category === 'images' ? 'images.html' : 'default.html',
    parsed_url: parsedUrl(item.url),
    publishedDate: item.published_date ?? null,
  };
  if (item.thumbnail) {
    result.thumbnail = item.thumbnail;
    // An image result's picture is what the image tools read (the search service passes its thumbnail).
    if (category === 'images') result.img_src = item.thumbnail;
  }
  return result;
}

/** Python's urlparse parts, as SearXNG sends them: scheme, netloc, path, params, query, fragment. */
function parsedUrl(url: string): string[] {
  try {
    const u = new URL(url);
    const [path = '', params = ''] = u.pathname.split(';');
    return [u.protocol.replace(/:$/, ''), u.host, path, params, u.search.replace(/^\?/, ''), u.hash.replace(/^#/, '')];
  } catch {
    return ['', '', url, '', '', ''];
  }
}
