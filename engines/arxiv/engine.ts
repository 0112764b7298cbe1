/**
 * arXiv through its Atom API (export.arxiv.org/api/query). The feed is small
 * and regular, so entries are read with anchored regular expressions rather
 * than a DOM.
 */
import { decodeEntities, defineEngine, EngineParseError, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';

const PAGE_SIZE = 10;

function text(raw: string | undefined): string {
  return decodeEntities((raw ?? '').replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1'))
    .replace(/\s+/g, ' ')
    .trim();
}

function element(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(xml)?.[1];
}

function attribute(tagSource: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tagSource)?.[1];
  return value === undefined ? undefined : decodeEntities(value);
}

function links(entry: string): Array<{ href?: string; rel?: string; title?: string }> {
  return [...entry.matchAll(/<link\b[^>]*>/g)].map(([tag]) => ({
    href: attribute(tag, 'href'),
    rel: attribute(tag, 'rel'),
    title: attribute(tag, 'title'),
  }));
}

/** http://arxiv.org/abs/2202.12139v1 → https://arxiv.org/abs/2202.12139v1 */
function absUrl(entry: string): string | undefined {
  const alternate = links(entry).find((link) => link.rel === 'alternate')?.href;
  return absoluteHttpUrl(
    (alternate ?? text(element(entry, 'id'))).replace(/^http:\/\/arxiv\.org\//, 'https://arxiv.org/'),
  );
}

function toResult(entry: string): EngineResult | undefined {
  const url = absUrl(entry);
  const title = text(element(entry, 'title'));
  if (!url || !title) return undefined;
  const authors = [...entry.matchAll(/<author>\s*<name>([\s\S]*?)<\/name>/g)].map((match) => text(match[1]));
  const result: EngineResult = { url, title, snippet: text(element(entry, 'summary')), authors };
  if (authors[0]) result.author = authors[0];
  const published = text(element(entry, 'published'));
  if (published) result.publishedDate = published;
  const doi = text(element(entry, 'arxiv:doi'));
  if (doi) result.doi = doi;
  const extra: Record<string, unknown> = {};
  const pdf = links(entry).find((link) => link.title === 'pdf')?.href;
  if (pdf) extra.pdfUrl = pdf;
  const primaryCategory = /<arxiv:primary_category\b[^>]*>/.exec(entry)?.[0];
  if (primaryCategory) extra.primaryCategory = attribute(primaryCategory, 'term');
  const journal = text(element(entry, 'arxiv:journal_ref'));
  if (journal) extra.journal = journal;
  const comment = text(element(entry, 'arxiv:comment'));
  if (comment) extra.comment = comment;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = { search_query: `all:${query.query}`, start: (query.page - 1) * PAGE_SIZE, max_results: PAGE_SIZE };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/api/query', params) };
  },

  parseResponse(response) {
    const xml = response.body;
    if (!/<feed\b/.test(xml)) throw new EngineParseError('arxiv answered with something other than an Atom feed');
    const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((match) => match[1]!);
    // Bad queries come back as a feed holding a single entry whose id is an api/errors URL.
    const failure = entries.find((entry) => /\/api\/errors/.test(element(entry, 'id') ?? ''));
    if (failure) throw new EngineParseError(`arxiv rejected the query: ${text(element(failure, 'summary'))}`);
    return { results: entries.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
