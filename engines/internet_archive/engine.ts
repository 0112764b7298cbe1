/**
 * Internet Archive advanced search (archive.org/advancedsearch.php, Solr JSON
 * output): books, films, audio, software and web collections. Results link to
 * the item's /details/<identifier> page.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;
const SNIPPET_LENGTH = 400;
const FIELDS = ['identifier', 'title', 'description', 'date', 'mediatype', 'creator'];

/** Archive metadata fields are a string or an array of strings. */
function firstText(value: unknown): string | undefined {
  const text = Array.isArray(value)
    ? value.filter((part): part is string => typeof part === 'string').join(' ')
    : asString(value);
  return text?.trim() || undefined;
}

function isoDate(value: unknown): string | undefined {
  const text = firstText(value);
  if (!text) return undefined;
  // Midnight UTC dates are day-precision in practice ("2008-01-01T00:00:00Z").
  const day = /^(\d{4}-\d{2}-\d{2})T00:00:00Z$/.exec(text);
  if (day) return day[1];
  const date = new Date(text);
  return /^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const url = new URL(endpointUrl(settings.baseUrl, '/advancedsearch.php', { q: query.query }));
    for (const field of FIELDS) url.searchParams.append('fl[]', field);
    url.searchParams.set('rows', String(PAGE_SIZE));
    url.searchParams.set('page', String(query.page));
    url.searchParams.set('output', 'json');
    return { method: 'GET', url: url.href, headers: { accept: 'application/json' } };
  },

  parseResponse(response, { settings }) {
    const data = asRecord(parseJsonBody(response.body, 'internet_archive'));
    if (!data) throw new EngineParseError('internet_archive answered with JSON that is not an object');
    const error = asString(data.error) ?? asString(asRecord(data.error)?.msg);
    if (error) throw new EngineParseError(`internet_archive search error: ${error}`);
    const body = asRecord(data.response);
    if (!body || !Array.isArray(body.docs))
      throw new EngineParseError('internet_archive answered without response.docs');
    const site = settings.baseUrl.replace(/\/+$/, '');
    const results: EngineResult[] = [];
    for (const doc of body.docs.map(asRecord)) {
      const identifier = asString(doc?.identifier);
      if (!doc || !identifier) continue;
      const description = stripMarkup(firstText(doc.description) ?? '');
      const result: EngineResult = {
        url: `${site}/details/${encodeURIComponent(identifier)}`,
        title: stripMarkup(firstText(doc.title) ?? identifier) || identifier,
        snippet:
          description.length > SNIPPET_LENGTH ? `${description.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : description,
        thumbnail: `${site}/services/img/${encodeURIComponent(identifier)}`,
      };
      const published = isoDate(doc.date);
      if (published) result.publishedDate = published;
      const creator = firstText(Array.isArray(doc.creator) ? doc.creator[0] : doc.creator);
      if (creator) result.author = stripMarkup(creator);
      result.extra = { identifier, ...(asString(doc.mediatype) ? { mediatype: doc.mediatype } : {}) };
      results.push(result);
    }
    return { results };
  },
});
