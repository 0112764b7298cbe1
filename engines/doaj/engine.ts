/**
 * DOAJ article search (doaj.org/api/search/articles/<query>): open-access
 * journal articles. The query sits in the URL path and uses Elasticsearch
 * query-string syntax.
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

/** year + month (strings in bibjson) → "2021-07" or "2021". */
function bibDate(year: unknown, month: unknown): string | undefined {
  const y = /^\d{4}$/.test(String(year ?? '')) ? String(year) : undefined;
  if (!y) return undefined;
  const m = Number(month);
  return Number.isInteger(m) && m >= 1 && m <= 12 ? `${y}-${String(m).padStart(2, '0')}` : y;
}

function toResult(value: unknown, site: string): EngineResult | undefined {
  const record = asRecord(value);
  const bib = asRecord(record?.bibjson);
  const id = asString(record?.id);
  const title = stripMarkup(asString(bib?.title) ?? '');
  if (!record || !bib || !title) return undefined;
  const doi = asArray(bib.identifier)
    .map(asRecord)
    .find((identifier) => asString(identifier?.type)?.toLowerCase() === 'doi');
  const doiValue = asString(doi?.id)?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '');
  const fulltext = asArray(bib.link)
    .map(asRecord)
    .filter((link) => asString(link?.type)?.toLowerCase() === 'fulltext')
    .map((link) => absoluteHttpUrl(asString(link?.url)))
    .find(Boolean);
  const url =
    fulltext ??
    (doiValue ? `https://doi.org/${doiValue}` : id ? `${site}/article/${encodeURIComponent(id)}` : undefined);
  if (!url) return undefined;
  const abstract = stripMarkup(asString(bib.abstract) ?? '');
  const result: EngineResult = {
    url,
    title,
    snippet: abstract.length > SNIPPET_LENGTH ? `${abstract.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : abstract,
  };
  const authors = asArray(bib.author)
    .map((author) => asString(asRecord(author)?.name)?.trim())
    .filter((name): name is string => Boolean(name));
  if (authors.length > 0) {
    result.authors = authors;
    result.author = authors[0]!;
  }
  const published = bibDate(bib.year, bib.month);
  if (published) result.publishedDate = published;
  if (doiValue) result.doi = doiValue;
  const journal = asRecord(bib.journal);
  const keywords = asArray(bib.keywords).filter((keyword): keyword is string => typeof keyword === 'string');
  result.extra = {
    ...(id ? { doajUrl: `${site}/article/${encodeURIComponent(id)}` } : {}),
    ...(asString(journal?.title) ? { journal: stripMarkup(asString(journal?.title)!) } : {}),
    ...(asString(journal?.publisher) ? { publisher: journal?.publisher } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const path = `/api/search/articles/${encodeURIComponent(query.query)}`;
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, path, { page: query.page, pageSize: PAGE_SIZE }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response, { settings }) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'doaj'));
    if (!data) throw new EngineParseError('doaj answered with JSON that is not an object');
    if (asString(data.error)) throw new EngineParseError(`doaj error: ${asString(data.error)}`);
    if (!Array.isArray(data.results)) throw new EngineParseError('doaj answered without results');
    const site = settings.baseUrl.replace(/\/+$/, '');
    return {
      results: data.results
        .map((record) => toResult(record, site))
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
