/**
 * IMDb through its search-suggestion endpoint
 * (v2.sg.media-imdb.com/suggestion/<c>/<query>.json): a short list of
 * titles (tt…) and people (nm…) with year, kind and a poster.
 */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const SITE = 'https://www.imdb.com';
const PATHS: Record<string, string> = { tt: 'title', nm: 'name' };

/** "The Matrix " → "the_matrix"; the endpoint files suggestions under the query's first character. */
export function suggestionPath(query: string): string {
  const normalized = query.trim().toLowerCase().replace(/\s+/g, '_');
  const first = [...normalized][0] ?? '_';
  return `/suggestion/${encodeURIComponent(first)}/${encodeURIComponent(normalized)}.json`;
}

function clean(value: unknown): string {
  const text = asString(value);
  return text === undefined ? '' : stripMarkup(text);
}

function toResult(value: unknown): EngineResult | undefined {
  const entry = asRecord(value);
  const id = asString(entry?.id);
  const match = id ? /^(tt|nm)\d+$/.exec(id) : null;
  const title = clean(entry?.l);
  if (!entry || !id || !match || !title) return undefined;
  const kind = clean(entry.q);
  const year = typeof entry.y === 'number' ? entry.y : undefined;
  const years = clean(entry.yr);
  const summary = clean(entry.s);
  const result: EngineResult = {
    url: `${SITE}/${PATHS[match[1]!]}/${id}/`,
    title,
    snippet: [kind, years || (year !== undefined ? String(year) : ''), summary].filter(Boolean).join(' · '),
  };
  const thumbnail = absoluteHttpUrl(asString(asRecord(entry.i)?.imageUrl));
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = { id };
  if (year !== undefined) extra.year = year;
  if (years) extra.years = years;
  if (kind) extra.kind = kind;
  if (asString(entry.qid)) extra.kindId = entry.qid;
  if (typeof entry.rank === 'number') extra.rank = entry.rank;
  result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: `${settings.baseUrl.replace(/\/+$/, '')}${suggestionPath(query.query)}`,
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('imdb answered 429 Too Many Requests');
    // Unknown prefixes answer 404 or an empty list: nothing matched.
    if (response.status === 404) return { results: [] };
    const data = asRecord(parseJsonBody(response.body, 'imdb'));
    if (!data) throw new EngineParseError('imdb answered with JSON that is not an object');
    if (data.d === undefined) return { results: [] };
    if (!Array.isArray(data.d)) throw new EngineParseError('imdb answered with a malformed suggestion list');
    return {
      results: asArray(data.d)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
