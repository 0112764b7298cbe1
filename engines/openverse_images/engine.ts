/**
 * Openverse (api.openverse.org), the openly licensed media index: the
 * official, keyless image search endpoint GET /v1/images/.
 */
import { defineEngine, stripMarkup, type EngineResult } from '../../core/engine.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asRecord, asString } from '../_lib/json-body.js';
import { openverseLicense, openverseRequest, openverseResults } from '../_openverse/openverse.js';

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
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
  const license = openverseLicense(asString(image.license), asString(image.license_version));
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
    return openverseRequest(settings, 'images', query);
  },

  parseResponse(response) {
    return {
      results: openverseResults(response, 'openverse_images')
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
