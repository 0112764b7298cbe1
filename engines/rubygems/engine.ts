/**
 * RubyGems.org search (rubygems.org/api/v1/search.json): Ruby gems, 30 a page.
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

function toResult(value: unknown, site: string): EngineResult | undefined {
  const gem = asRecord(value);
  const name = asString(gem?.name);
  if (!gem || !name) return undefined;
  const url = absoluteHttpUrl(asString(gem.project_uri)) ?? `${site}/gems/${encodeURIComponent(name)}`;
  const result: EngineResult = { url, title: name, snippet: stripMarkup(asString(gem.info) ?? '') };
  const authors = asString(gem.authors);
  if (authors) result.author = authors;
  const published = isoDate(gem.version_created_at);
  if (published) result.publishedDate = published;
  const licenses = asArray(gem.licenses).filter((license): license is string => typeof license === 'string');
  const source = absoluteHttpUrl(asString(gem.source_code_uri));
  const homepage = absoluteHttpUrl(asString(gem.homepage_uri));
  result.extra = {
    ...(asString(gem.version) ? { version: gem.version } : {}),
    ...(typeof gem.downloads === 'number' ? { downloads: gem.downloads } : {}),
    ...(licenses.length > 0 ? { licenses } : {}),
    ...(source ? { repository: source } : {}),
    ...(homepage ? { homepage } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api/v1/search.json', {
        query: query.query,
        page: query.page > 1 ? query.page : undefined,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response, { settings }) {
    if (response.status === 429) throw new EngineRateLimitedError();
    const data = parseJsonBody(response.body, 'rubygems');
    if (!Array.isArray(data)) {
      const error = asString(asRecord(data)?.error);
      throw new EngineParseError(`rubygems answered without a list of gems${error ? `: ${error}` : ''}`);
    }
    const site = settings.baseUrl.replace(/\/+$/, '');
    return {
      results: data.map((gem) => toResult(gem, site)).filter((result): result is EngineResult => result !== undefined),
    };
  },
});
