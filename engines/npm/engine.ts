/**
 * npm registry search (registry.npmjs.org/-/v1/search): JavaScript packages.
 * Results link to the package page on npmjs.com.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';
import { isoDate } from '../_lib/dates.js';

const PAGE_SIZE = 20;

function toResult(value: unknown): EngineResult | undefined {
  const object = asRecord(value);
  const pkg = asRecord(object?.package);
  const name = asString(pkg?.name);
  if (!pkg || !name) return undefined;
  const links = asRecord(pkg.links);
  const url =
    absoluteHttpUrl(asString(links?.npm)) ??
    `https://www.npmjs.com/package/${name.split('/').map(encodeURIComponent).join('/')}`;
  const result: EngineResult = { url, title: name, snippet: stripMarkup(asString(pkg.description) ?? '') };
  const author = asString(asRecord(pkg.author)?.name) ?? asString(asRecord(pkg.publisher)?.username);
  if (author) result.author = author;
  const published = isoDate(pkg.date);
  if (published) result.publishedDate = published;
  const keywords = asArray(pkg.keywords).filter((keyword): keyword is string => typeof keyword === 'string');
  const repository = absoluteHttpUrl(asString(links?.repository));
  const homepage = absoluteHttpUrl(asString(links?.homepage));
  const downloads = asRecord(object?.downloads);
  result.extra = {
    ...(asString(pkg.version) ? { version: pkg.version } : {}),
    ...(asString(pkg.license) ? { license: pkg.license } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(repository ? { repository } : {}),
    ...(homepage ? { homepage } : {}),
    ...(typeof downloads?.weekly === 'number' ? { weeklyDownloads: downloads.weekly } : {}),
    ...(typeof asRecord(object?.score)?.final === 'number' ? { score: asRecord(object?.score)?.final } : {}),
  };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    const params = {
      text: query.query,
      size: PAGE_SIZE,
      from: query.page > 1 ? (query.page - 1) * PAGE_SIZE : undefined,
    };
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/-/v1/search', params),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'npm'));
    if (data && asString(data.error)) throw new EngineParseError(`npm search error: ${asString(data.error)}`);
    if (!data || !Array.isArray(data.objects)) throw new EngineParseError('npm answered without objects');
    return { results: data.objects.map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
