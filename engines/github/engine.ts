/**
 * GitHub repository search through the REST API (api.github.com/search/repositories).
 * The parser reads repository items and, for answers of /search/issues,
 * issue and pull-request items too. A token (engines.github.apiKey) is optional
 * and raises the search rate limit.
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
const SNIPPET_LENGTH = 300;

function clip(text: string): string {
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : text;
}

function repositoryResult(item: Record<string, unknown>, url: string): EngineResult {
  const result: EngineResult = {
    url,
    title: asString(item.full_name)!,
    snippet: clip(stripMarkup(asString(item.description) ?? '')),
  };
  const owner = asString(asRecord(item.owner)?.login);
  if (owner) result.author = owner;
  const updated = asString(item.pushed_at) ?? asString(item.updated_at);
  if (updated) result.publishedDate = updated;
  result.extra = {
    type: 'repository',
    stars: item.stargazers_count,
    forks: item.forks_count,
    language: item.language ?? null,
    topics: asArray(item.topics),
    license: asString(asRecord(item.license)?.spdx_id) ?? null,
  };
  return result;
}

function issueResult(item: Record<string, unknown>, url: string): EngineResult | undefined {
  const title = stripMarkup(asString(item.title) ?? '');
  if (!title) return undefined;
  const result: EngineResult = { url, title, snippet: clip(stripMarkup(asString(item.body) ?? '')) };
  const author = asString(asRecord(item.user)?.login);
  if (author) result.author = author;
  const created = asString(item.created_at);
  if (created) result.publishedDate = created;
  result.extra = { type: item.pull_request ? 'pull_request' : 'issue', state: item.state, comments: item.comments };
  return result;
}

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  const url = absoluteHttpUrl(asString(item?.html_url));
  if (!item || !url) return undefined;
  return asString(item.full_name) ? repositoryResult(item, url) : issueResult(item, url);
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    };
    if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
    const params = { q: query.query, page: query.page > 1 ? query.page : undefined, per_page: PAGE_SIZE };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search/repositories', params), headers };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'github'));
    if (!data) throw new EngineParseError('github answered with JSON that is not an object');
    if (!Array.isArray(data.items)) {
      const message = asString(data.message) ?? 'no items';
      if (/rate limit/i.test(message)) throw new EngineRateLimitedError(`github: ${message}`);
      throw new EngineParseError(`github answered without items: ${message}`);
    }
    return { results: data.items.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
