/**
 * Openverse (api.openverse.org), the openly licensed media index: the
 * official, keyless image search endpoint GET /v1/images/.
 */
import { defineEngine, EngineParseError, stripMarkup, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** "by" + "4.0" → "CC BY 4.0"; public-domain marks keep their names. */
function licenseName(license: string | undefined, version: string | undefined): string | undefined {
  if (!license) return undefined;
  const upper = license.toUpperCase();
  const name = upper === 'PDM' || upper === 'CC0' ? upper : `CC ${upper}`;
  return version ? `${name} ${version}` : name;
}

function toResult(item: unknown): EngineResult | undefined {
  const image = asRecord(item);
  if (!image) return undefined;
  const imageUrl = absoluteHttpUrl(asString(image.url));
  const page = absoluteHttpUrl(asString(image.foreign_landing_url)) ?? imageUrl;
  if (!imageUrl || !page) return undefined;
  const title = stripMarkup(asString(image.title) ?? '') || page;
  const result: EngineResult = {
    url: page,
    title,
    snippet: '',
    imageUrl,
    thumbnail: absoluteHttpUrl(asString(image.thumbnail)) ?? imageUrl,
    sourceUrl: page,
  };
  const creator = asString(image.creator);
  if (creator) result.author = creator;
  const width = dimension(image.width);
  const height = dimension(image.height);
  if (width && height) Object.assign(result, { width, height });
  const extra: Record<string, unknown> = {};
  const license = licenseName(asString(image.license), asString(image.license_version));
  if (license) extra.license = license;
  const licenseUrl = absoluteHttpUrl(asString(image.license_url));
  if (licenseUrl) extra.licenseUrl = licenseUrl;
  const source = asString(image.source) ?? asString(image.provider);
  if (source) extra.source = source;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/v1/images/', {
        q: query.query,
        page: query.page,
        page_size: PAGE_SIZE,
        // Openverse hides sensitive results unless asked; only safe search off asks.
        include_sensitive_results: query.safeSearch === 0 ? 'true' : undefined,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'openverse_images'));
    if (!data || !Array.isArray(data.results)) {
      const detail = asString(data?.detail) ?? asString(asRecord(data?.detail)?.message);
      throw new EngineParseError(`openverse_images answered without results${detail ? `: ${detail}` : ''}`);
    }
    return { results: asArray(data.results).map(toResult).filter((result): result is EngineResult => result !== undefined) };
  },
});
