/**
 * Wikipedia full-text search through the MediaWiki Action API
 * (<baseUrl>/w/api.php?action=query&list=search). The parser also reads the
 * generator=search shape (query.pages), which the Wikipedia apps use.
 *
 * Language: with the default baseUrl (https://en.wikipedia.org) the language
 * picks the subdomain (de → de.wikipedia.org). A configured baseUrl is used
 * as is — it names one wiki — so the language then changes nothing.
 */
import {
  defineEngine,
  EngineParseError,
  stripMarkup,
  type EngineContext,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
const DEFAULT_WIKI = 'https://en.wikipedia.org';

export function wikiBaseUrl(settings: EngineContext['settings'], language: string): string {
  const base = settings.baseUrl.replace(/\/+$/, '');
  if (base !== DEFAULT_WIKI || language === 'all' || !/^[a-z]{2,3}(-[a-z]+)?$/.test(language)) return base;
  return `https://${language}.wikipedia.org`;
}

/** The article URL for a title on the wiki the request went to. */
export function articleUrl(apiUrl: string, title: string): string {
  const wiki = apiUrl.replace(/\/w\/api\.php.*$/, '');
  const path = encodeURIComponent(title.replace(/ /g, '_'))
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/');
  return `${wiki}/wiki/${path}`;
}

function raiseApiError(data: Record<string, unknown>): void {
  const error = asRecord(data.error) ?? asRecord(asArray(data.errors)[0]);
  if (!error) return;
  const text = asString(error.info) ?? asString(error.text) ?? asString(error.code) ?? 'unknown error';
  throw new EngineParseError(`wikipedia API error: ${text}`);
}

/** query.pages is an array (formatversion=2) or an object keyed by page id; order by search rank. */
function rankedPages(query: Record<string, unknown>): Record<string, unknown>[] {
  const pages = Array.isArray(query.pages) ? query.pages : Object.values(asRecord(query.pages) ?? {});
  return pages
    .map(asRecord)
    .filter((page): page is Record<string, unknown> => page !== undefined)
    .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0));
}

function fromSearchHit(hit: Record<string, unknown>, apiUrl: string): EngineResult | undefined {
  const title = asString(hit.title);
  if (!title) return undefined;
  const result: EngineResult = {
    url: articleUrl(apiUrl, title),
    title,
    snippet: stripMarkup(asString(hit.snippet) ?? ''),
  };
  const timestamp = asString(hit.timestamp);
  if (timestamp) result.extra = { lastEdited: timestamp, wordCount: hit.wordcount };
  return result;
}

function fromGeneratorPage(page: Record<string, unknown>, apiUrl: string): EngineResult | undefined {
  const title = asString(page.title);
  if (!title) return undefined;
  const description = asString(asArray(asRecord(page.terms)?.description)[0]) ?? asString(page.description) ?? '';
  const result: EngineResult = { url: articleUrl(apiUrl, title), title, snippet: stripMarkup(description) };
  const thumbnail = absoluteHttpUrl(asString(asRecord(page.thumbnail)?.source));
  if (thumbnail) result.thumbnail = thumbnail;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      action: 'query',
      list: 'search',
      format: 'json',
      formatversion: 2,
      srsearch: query.query,
      srlimit: PAGE_SIZE,
      sroffset: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
      srprop: 'snippet|timestamp|wordcount',
      utf8: 1,
    };
    return { method: 'GET', url: endpointUrl(wikiBaseUrl(settings, query.language), '/w/api.php', params) };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'wikipedia'));
    if (!data) throw new EngineParseError('wikipedia answered with JSON that is not an object');
    raiseApiError(data);
    const query = asRecord(data.query);
    if (!query) return { results: [] };
    const apiUrl = response.request.url;
    const results = Array.isArray(query.search)
      ? query.search.map((hit) => fromSearchHit(asRecord(hit) ?? {}, apiUrl))
      : rankedPages(query).map((page) => fromGeneratorPage(page, apiUrl));
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },

  autocomplete: {
    buildRequest(text, { settings, language }) {
      const params = {
        action: 'query',
        format: 'json',
        formatversion: 2,
        generator: 'prefixsearch',
        gpssearch: text,
        gpslimit: 10,
        redirects: 1,
      };
      return { method: 'GET', url: endpointUrl(wikiBaseUrl(settings, language), '/w/api.php', params) };
    },
    parseResponse(response) {
      const data = parseJsonBody(response.body, 'wikipedia autocomplete');
      // action=opensearch answers ["text", [titles], ...]; generator=prefixsearch answers query.pages.
      if (Array.isArray(data)) return asArray(data[1]).filter((title): title is string => typeof title === 'string');
      const record = asRecord(data) ?? {};
      raiseApiError(record);
      const query = asRecord(record.query);
      if (!query) return [];
      return rankedPages(query)
        .map((page) => asString(page.title))
        .filter((title): title is string => title !== undefined);
    },
  },
});
