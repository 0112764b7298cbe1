/**
 * Zenodo record search (zenodo.org/api/records): research outputs of every
 * kind — datasets, software, papers, posters, presentations.
 */
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 10;
const SNIPPET_LENGTH = 400;

function dayDate(value: unknown): string | undefined {
  const text = asString(value);
  return text && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(text) ? text : undefined;
}

function toResult(value: unknown, site: string): EngineResult | undefined {
  const record = asRecord(value);
  const metadata = asRecord(record?.metadata);
  const title = stripMarkup(asString(metadata?.title) ?? '');
  const links = asRecord(record?.links);
  const id = record?.id ?? record?.recid;
  const url =
    absoluteHttpUrl(asString(links?.self_html)) ??
    absoluteHttpUrl(asString(links?.html)) ??
    (typeof id === 'number' || typeof id === 'string' ? `${site}/records/${id}` : undefined);
  if (!record || !metadata || !title || !url) return undefined;
  const description = stripMarkup((asString(metadata.description) ?? '').replace(/<\/p>|<br\s*\/?>/gi, ' '));
  const result: EngineResult = {
    url,
    title,
    snippet:
      description.length > SNIPPET_LENGTH ? `${description.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : description,
  };
  const authors = asArray(metadata.creators)
    .map((creator) => asString(asRecord(creator)?.name)?.trim())
    .filter((name): name is string => Boolean(name));
  if (authors.length > 0) {
    result.authors = authors;
    result.author = authors[0]!;
  }
  const published = dayDate(metadata.publication_date);
  if (published) result.publishedDate = published;
  const doi = asString(metadata.doi) ?? asString(record.doi);
  if (doi) result.doi = doi;
  const resourceType = asRecord(metadata.resource_type);
  const keywords = asArray(metadata.keywords).filter((keyword): keyword is string => typeof keyword === 'string');
  const license = asString(asRecord(metadata.license)?.id) ?? asString(metadata.license);
  const stats = asRecord(record.stats);
  result.extra = {
    ...(id !== undefined ? { id } : {}),
    ...(asString(resourceType?.title) || asString(resourceType?.type)
      ? { resourceType: asString(resourceType?.title) ?? asString(resourceType?.type) }
      : {}),
    ...(asString(metadata.access_right) ? { accessRight: metadata.access_right } : {}),
    ...(license ? { license } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(typeof stats?.downloads === 'number' ? { downloads: stats.downloads } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = { q: query.query, page: query.page, size: PAGE_SIZE, sort: 'bestmatch' };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/records', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response, { settings }) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'zenodo'));
    if (!data) throw new EngineParseError('zenodo answered with JSON that is not an object');
    const hits = asRecord(data.hits);
    if (!hits || !Array.isArray(hits.hits)) {
      const message = asString(data.message);
      throw new EngineParseError(`zenodo answered without hits${message ? `: ${message}` : ''}`);
    }
    const site = settings.baseUrl.replace(/\/+$/, '');
    return {
      results: hits.hits
        .map((record) => toResult(record, site))
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
