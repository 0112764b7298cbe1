/**
 * Crossref works search (api.crossref.org/works). Set engines.crossref.options.mailto
 * to join Crossref's "polite" pool, which is faster and more reliable.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
const SNIPPET_LENGTH = 400;
const DATE_FIELDS = ['published', 'published-print', 'published-online', 'issued'];

/** { "date-parts": [[2018, 11, 3]] } → "2018-11-03"; partial dates stay partial ("2019"). */
export function dateFromParts(value: unknown): string | undefined {
  const parts = asArray(asArray(asRecord(value)?.['date-parts'])[0]).filter(
    (part): part is number => typeof part === 'number',
  );
  if (parts.length === 0) return undefined;
  const [year, month, day] = parts;
  return [String(year).padStart(4, '0'), month && String(month).padStart(2, '0'), day && String(day).padStart(2, '0')]
    .filter(Boolean)
    .join('-');
}

function authorName(value: unknown): string | undefined {
  const author = asRecord(value);
  const name = [asString(author?.given), asString(author?.family)].filter(Boolean).join(' ') || asString(author?.name);
  return name || undefined;
}

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  const title = stripMarkup(asString(asArray(item?.title)[0]) ?? '');
  const doi = asString(item?.DOI);
  const url = absoluteHttpUrl(asString(item?.URL)) ?? (doi ? `https://doi.org/${doi}` : undefined);
  if (!item || !title || !url) return undefined;
  const abstract = stripMarkup(asString(item.abstract) ?? '');
  const result: EngineResult = {
    url,
    title,
    snippet: abstract.length > SNIPPET_LENGTH ? `${abstract.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : abstract,
  };
  const authors = asArray(item.author)
    .map(authorName)
    .filter((name): name is string => name !== undefined);
  if (authors.length > 0) {
    result.authors = authors;
    result.author = authors[0]!;
  }
  const published = DATE_FIELDS.map((field) => dateFromParts(item[field])).find((date) => date !== undefined);
  if (published) result.publishedDate = published;
  if (doi) result.doi = doi;
  const journal = asString(asArray(item['container-title'])[0]);
  result.extra = {
    type: item.type,
    ...(journal ? { journal: stripMarkup(journal) } : {}),
    ...(asString(item.publisher) ? { publisher: item.publisher } : {}),
    ...(typeof item['is-referenced-by-count'] === 'number' ? { citations: item['is-referenced-by-count'] } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const mailto = typeof settings.options.mailto === 'string' ? settings.options.mailto : undefined;
    const params = {
      query: query.query,
      rows: PAGE_SIZE,
      offset: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
      mailto,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/works', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'crossref'));
    if (!data) throw new EngineParseError('crossref answered with JSON that is not an object');
    if (data.status !== 'ok') throw new EngineParseError(`crossref answered with status ${String(data.status)}`);
    const message = asRecord(data.message);
    if (!message || !Array.isArray(message.items))
      throw new EngineParseError('crossref answered without message.items');
    return { results: message.items.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
