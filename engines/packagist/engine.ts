/**
 * Packagist search (packagist.org/search.json): PHP Composer packages.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 15;

function toResult(value: unknown, site: string): EngineResult | undefined {
  const pkg = asRecord(value);
  const name = asString(pkg?.name);
  if (!pkg || !name) return undefined;
  const url = absoluteHttpUrl(asString(pkg.url)) ?? `${site}/packages/${name}`;
  const result: EngineResult = { url, title: name, snippet: stripMarkup(asString(pkg.description) ?? '') };
  const vendor = name.split('/')[0];
  if (vendor && vendor !== name) result.author = vendor;
  const repository = absoluteHttpUrl(asString(pkg.repository));
  // abandoned is true, or the name of the suggested replacement.
  const abandoned =
    pkg.abandoned === true || (typeof pkg.abandoned === 'string' && pkg.abandoned !== '') ? pkg.abandoned : undefined;
  result.extra = {
    ...(repository ? { repository } : {}),
    ...(typeof pkg.downloads === 'number' ? { downloads: pkg.downloads } : {}),
    ...(typeof pkg.favers === 'number' ? { stars: pkg.favers } : {}),
    ...(abandoned !== undefined ? { abandoned } : {}),
    ...(typeof pkg.virtual === 'boolean' && pkg.virtual ? { virtual: true } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = { q: query.query, per_page: PAGE_SIZE, page: query.page > 1 ? query.page : undefined };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search.json', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response, { settings }) {
    const data = asRecord(parseJsonBody(response.body, 'packagist'));
    const error = asRecord(data?.error) ?? (asString(data?.status) === 'error' ? data : undefined);
    if (error) throw new EngineParseError(`packagist error: ${asString(error.message) ?? 'unknown'}`);
    if (!data || !Array.isArray(data.results)) throw new EngineParseError('packagist answered without results');
    const site = settings.baseUrl.replace(/\/+$/, '');
    return {
      results: data.results
        .map((pkg) => toResult(pkg, site))
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
