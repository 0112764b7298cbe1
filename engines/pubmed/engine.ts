/**
 * PubMed through NCBI E-utilities, in two steps: esearch finds the PubMed ids
 * for the query, esummary returns title, authors and journal for those ids.
 */
import { DOMParser } from 'linkedom';
import {
  defineEngine,
  EngineParseError,
  EngineRateLimitedError,
  type EngineContext,
  type EngineResponse,
  type EngineResult,
  type HttpRequestSpec,
} from '../../core/engine.js';

const PAGE_SIZE = 10;
const ARTICLE_URL = 'https://pubmed.ncbi.nlm.nih.gov/';

type XmlElement = ReturnType<DOMParser['parseFromString']>['documentElement'];

function eutilsUrl(ctx: EngineContext, tool: string, params: Record<string, string>): string {
  const base = ctx.settings.baseUrl.replace(/\/+$/, '');
  const search = new URLSearchParams({ db: 'pubmed', ...params });
  if (ctx.settings.apiKey) search.set('api_key', ctx.settings.apiKey);
  return `${base}/${tool}?${search}`;
}

function parseXml(response: EngineResponse): XmlElement {
  if (response.status === 429) throw new EngineRateLimitedError();
  if (response.status >= 400) throw new EngineParseError(`pubmed answered HTTP ${response.status}`);
  const root = new DOMParser().parseFromString(response.body, 'text/xml').documentElement;
  if (!root) throw new EngineParseError('pubmed did not answer XML');
  const error = root.querySelector('ERROR');
  if (error?.textContent?.trim()) throw new EngineParseError(`pubmed: ${error.textContent.trim()}`);
  return root;
}

/** esummary lists fields as <Item Name="..."> children of each DocSum. */
function item(docSum: XmlElement, name: string): string {
  const found = [...docSum.children].find((child) => child.getAttribute('Name') === name);
  return found?.textContent?.trim() ?? '';
}

function items(docSum: XmlElement, listName: string): XmlElement[] {
  const list = [...docSum.children].find((child) => child.getAttribute('Name') === listName);
  return list ? [...list.children] : [];
}

/** History dates look like "2001/08/03 10:00"; the pubmed entry is the publication into PubMed. */
function isoDate(docSum: XmlElement): string | undefined {
  const pubmedDate =
    items(docSum, 'History').find((entry) => entry.getAttribute('Name') === 'pubmed')?.textContent ?? '';
  const match = /^(\d{4})\/(\d{2})\/(\d{2})/.exec(pubmedDate.trim());
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

function summaryToResult(docSum: XmlElement): EngineResult | undefined {
  const id = docSum.querySelector('Id')?.textContent?.trim();
  const title = item(docSum, 'Title');
  if (!id || !title) return undefined;
  const authors = items(docSum, 'AuthorList')
    .map((author) => author.textContent?.trim() ?? '')
    .filter(Boolean);
  const journal = item(docSum, 'FullJournalName') || item(docSum, 'Source');
  const citation = item(docSum, 'SO');
  const doi = items(docSum, 'ArticleIds')
    .find((entry) => entry.getAttribute('Name') === 'doi')
    ?.textContent?.trim();
  return {
    url: `${ARTICLE_URL}${id}/`,
    title,
    snippet: [authors.join(', '), [journal, citation].filter(Boolean).join('. ')].filter(Boolean).join(' — '),
    publishedDate: isoDate(docSum),
    authors,
    doi: doi || undefined,
    extra: { pmid: id, journal, pubTypes: items(docSum, 'PubTypeList').map((entry) => entry.textContent?.trim()) },
  };
}

function summaryRequest(ctx: EngineContext, ids: string[]): HttpRequestSpec {
  return {
    method: 'GET',
    url: eutilsUrl(ctx, 'esummary.fcgi', { id: ids.join(','), retmode: 'xml' }),
    meta: { step: 'esummary', ids },
  };
}

export default defineEngine({
  buildRequest(ctx) {
    return {
      method: 'GET',
      url: eutilsUrl(ctx, 'esearch.fcgi', {
        term: ctx.query.query,
        retmax: String(PAGE_SIZE),
        retstart: String((ctx.query.page - 1) * PAGE_SIZE),
        retmode: 'xml',
      }),
      meta: { step: 'esearch' },
    };
  },

  parseResponse(response, ctx) {
    const root = parseXml(response);
    // The summary step is recognised by its content too, so a saved summary parses on its own (quarry engine parse).
    if (response.request.meta?.step === 'esummary' || root.querySelector('DocSum')) {
      const results = [...root.querySelectorAll('DocSum')]
        .map(summaryToResult)
        .filter((result) => result !== undefined);
      return { results };
    }
    const ids = [...root.querySelectorAll('IdList > Id')].map((id) => id.textContent?.trim() ?? '').filter(Boolean);
    return ids.length > 0 ? { next: summaryRequest(ctx, ids) } : { results: [] };
  },
});
