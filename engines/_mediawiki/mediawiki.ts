/**
 * Shared MediaWiki full-text search (action=query&list=search) for the
 * Wikimedia sister projects (Wiktionary, Wikiquote, Wikibooks, Wikisource).
 * Folders starting with "_" are not loaded as engines.
 *
 * Language: with the engine's default baseUrl (https://en.<project>.org) the
 * query language picks the subdomain (de → https://de.<project>.org). A
 * configured baseUrl names one wiki and is used as is.
 */
import {
  defineEngine,
  EngineParseError,
  stripMarkup,
  type EngineDefinition,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDate } from '../_lib/dates.js';

export const MEDIAWIKI_PAGE_SIZE = 10;

export interface MediaWikiProject {
  /** Engine id, used in error messages. */
  id: string;
  /** Registered domain of the project, e.g. "wiktionary.org". */
  domain: string;
  /** Namespaces searched (0 = main). */
  namespaces?: number[];
}

/** The wiki a request goes to: the language subdomain for the default baseUrl, else the configured baseUrl. */
export function projectWikiUrl(baseUrl: string, defaultBaseUrl: string, domain: string, language: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (base !== defaultBaseUrl.replace(/\/+$/, '') || language === 'all' || !/^[a-z]{2,3}(-[a-z]+)?$/.test(language))
    return base;
  return `https://${language}.${domain}`;
}

/** The /wiki/ URL of a page title on the wiki an API URL belongs to. */
export function pageUrl(apiUrl: string, title: string): string {
  const wiki = apiUrl.replace(/\/w\/api\.php.*$/, '');
  const path = encodeURIComponent(title.replace(/ /g, '_'))
    .replace(/%2C/g, ',')
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/');
  return `${wiki}/wiki/${path}`;
}

/** Parses a list=search answer (formatversion 1 or 2) into results linking to pages on the requested wiki. */
export function parseMediaWikiSearch(body: string, apiUrl: string, id: string): EngineResult[] {
  const data = asRecord(parseJsonBody(body, id));
  if (!data) throw new EngineParseError(`${id} answered with JSON that is not an object`);
  const error = asRecord(data.error) ?? asRecord(asArray(data.errors)[0]);
  if (error) {
    const text = asString(error.info) ?? asString(error.text) ?? asString(error.code) ?? 'unknown error';
    throw new EngineParseError(`${id} API error: ${text}`);
  }
  const results: EngineResult[] = [];
  for (const hit of asArray(asRecord(data.query)?.search).map(asRecord)) {
    const title = asString(hit?.title);
    if (!hit || !title) continue;
    const result: EngineResult = {
      url: pageUrl(apiUrl, title),
      title: stripMarkup(title),
      snippet: stripMarkup(asString(hit.snippet) ?? ''),
    };
    const lastEdited = isoDate(hit.timestamp);
    const extra: Record<string, unknown> = {};
    if (lastEdited) extra.lastEdited = lastEdited;
    if (typeof hit.wordcount === 'number') extra.wordCount = hit.wordcount;
    if (Object.keys(extra).length > 0) result.extra = extra;
    results.push(result);
  }
  return results;
}

/** An engine for one sister project; the manifest's baseUrl is the default wiki. */
export function mediaWikiEngine(project: MediaWikiProject): EngineDefinition {
  return defineEngine({
    buildRequest({ query, settings, manifest }) {
      const params = {
        action: 'query',
        list: 'search',
        format: 'json',
        formatversion: 2,
        srsearch: query.query,
        srnamespace: (project.namespaces ?? [0]).join('|'),
        srlimit: MEDIAWIKI_PAGE_SIZE,
        sroffset: query.page > 1 ? (query.page - 1) * MEDIAWIKI_PAGE_SIZE : undefined,
        srprop: 'snippet|timestamp|wordcount',
        utf8: 1,
      };
      const wiki = projectWikiUrl(settings.baseUrl, manifest.baseUrl, project.domain, query.language);
      return { method: 'GET', url: endpointUrl(wiki, '/w/api.php', params), headers: { accept: 'application/json' } };
    },

    parseResponse(response) {
      return { results: parseMediaWikiSearch(response.body, response.request.url, project.id) };
    },
  });
}
