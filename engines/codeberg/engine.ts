/**
 * Codeberg repository search through the Gitea/Forgejo API
 * (codeberg.org/api/v1/repos/search). Any Gitea or Forgejo instance works as
 * engines.codeberg.baseUrl; a token (engines.codeberg.apiKey) is optional.
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
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 20;

function toResult(value: unknown): EngineResult | undefined {
  const repo = asRecord(value);
  const url = absoluteHttpUrl(asString(repo?.html_url));
  const title = asString(repo?.full_name) ?? asString(repo?.name);
  if (!repo || !url || !title) return undefined;
  const result: EngineResult = { url, title, snippet: stripMarkup(asString(repo.description) ?? '') };
  const owner = asString(asRecord(repo.owner)?.login) ?? asString(asRecord(repo.owner)?.username);
  if (owner) result.author = owner;
  const updated = isoDate(repo.updated_at);
  if (updated) result.publishedDate = updated;
  const avatar =
    absoluteHttpUrl(asString(repo.avatar_url)) ?? absoluteHttpUrl(asString(asRecord(repo.owner)?.avatar_url));
  if (avatar) result.thumbnail = avatar;
  const topics = asArray(repo.topics).filter((topic): topic is string => typeof topic === 'string');
  result.extra = {
    ...(typeof repo.stars_count === 'number' ? { stars: repo.stars_count } : {}),
    ...(typeof repo.forks_count === 'number' ? { forks: repo.forks_count } : {}),
    ...(asString(repo.language) ? { language: repo.language } : {}),
    ...(topics.length > 0 ? { topics } : {}),
    ...(repo.fork === true ? { fork: true } : {}),
    ...(repo.archived === true ? { archived: true } : {}),
    ...(asString(repo.created_at) ? { created: isoDate(repo.created_at) } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = { q: query.query, page: query.page, limit: PAGE_SIZE, sort: 'updated', order: 'desc' };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.apiKey) headers.authorization = `token ${settings.apiKey}`;
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/api/v1/repos/search', params), headers };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = asRecord(parseJsonBody(response.body, 'codeberg'));
    if (!data) throw new EngineParseError('codeberg answered with JSON that is not an object');
    if (data.ok === false || !Array.isArray(data.data)) {
      throw new EngineParseError(
        `codeberg search failed${asString(data.message) ? `: ${asString(data.message)}` : ''}`,
      );
    }
    return {
      results: asArray(data.data)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
