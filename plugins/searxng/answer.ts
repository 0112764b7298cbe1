/**
 * A Quarry metasearch in SearXNG's JSON shape: every merged result, best
 * first. Quarry has no instant answers, infoboxes, spelling corrections or
 * suggestions, so those lists are empty; engines that failed (and names
 * Quarry does not know) are reported as SearXNG reports unresponsive engines,
 * [engine, reason]. number_of_results is the count of merged results: SearXNG
 * sends the engines' own estimate of all matches there when they give one,
 * which Quarry's engines do not.
 */
import { round } from '../../services/ranking/scoring.js';
import type { MergedResult } from '../../services/web-search/merge.js';
import type { MetaSearchAnswer } from '../../services/web-search/web-search.js';
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
  query: string;
  /** The main category of an engine, Quarry's name. */
  categoryOf(engine: string): string | undefined;
  unknownEngines: string[];
}

export function toSearxngAnswer(answer: MetaSearchAnswer, context: AnswerContext): SearxngAnswer {
  return {
    query: context.query,
    number_of_results: answer.results.length,
    results: answer.results.map((item) => toSearxngResult(item, context)),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [
      ...answer.unresponsive.map(({ engine, code, message }): [string, string] => [engine, REASONS[code] ?? message]),
      ...context.unknownEngines.map((engine): [string, string] => [engine, 'unknown engine']),
    ],
  };
}

function toSearxngResult(item: MergedResult, context: AnswerContext): SearxngResult {
  const engine = item.engines[0] ?? '';
  const category = searxngCategory(context.categoryOf(engine) ?? 'general');
  const result: SearxngResult = {
    url: item.url,
    title: item.title,
    content: item.snippet,
    engine,
    engines: item.engines,
    positions: item.positions.map((p) => p.position),
    score: round(item.score),
    category,
    template: category === 'images' ? 'images.html' : 'default.html',
    parsed_url: parsedUrl(item.url),
    publishedDate: item.publishedDate ?? null,
  };
  if (item.thumbnail) result.thumbnail = item.thumbnail;
  // An image result's picture is what the image tools read: the image itself, else its thumbnail.
  const picture = item.imageUrl ?? item.thumbnail;
  if (category === 'images' && picture) result.img_src = picture;
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
