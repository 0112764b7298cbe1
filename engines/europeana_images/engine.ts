/**
 * Europeana, Europe's digital cultural heritage collection, through its
 * official Search API (GET api.europeana.eu/record/v2/search.json), limited
 * to image records. Needs a key (engines.europeana_images.apiKey, sent as wskey; the old id engines.europeana still
 * works).
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const PAGE_SIZE = 20;

function first(value: unknown): string | undefined {
  return asArray(value).find((entry): entry is string => typeof entry === 'string' && entry.trim() !== '');
}

/** The item page without the utm_* parameters the API appends to every guid. */
function itemPage(value: unknown): string | undefined {
  const url = absoluteHttpUrl(asString(value));
  if (!url) return undefined;
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) if (name.startsWith('utm_')) parsed.searchParams.delete(name);
  return parsed.href;
}

/** Creator names; the API also lists linked-data URIs, which are no use to a reader. */
function creator(item: Record<string, unknown>): string | undefined {
  const names = asArray(item.dcCreator).filter(
    (entry): entry is string => typeof entry === 'string' && !/^https?:\/\//.test(entry),
  );
  return names.length > 0 ? names.join('; ') : undefined;
}

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  if (!item) return undefined;
  const page =
    itemPage(item.guid) ?? (asString(item.id) ? `https://www.europeana.eu/item${asString(item.id)}` : undefined);
  const title = stripMarkup(first(item.title) ?? first(asRecord(item.dcTitleLangAware)?.def) ?? '');
  const preview = absoluteHttpUrl(first(item.edmPreview));
  const imageUrl = absoluteHttpUrl(first(item.edmIsShownBy)) ?? preview;
  if (!page || !title || !imageUrl) return undefined;
  const result: EngineResult = {
    url: page,
    title,
    snippet: stripMarkup(first(item.dcDescription) ?? ''),
    imageUrl,
    thumbnail: preview ?? imageUrl,
    sourceUrl: absoluteHttpUrl(first(item.edmIsShownAt)) ?? page,
  };
  const author = creator(item);
  if (author) result.author = author;
  const extra: Record<string, unknown> = {};
  const provider = first(item.dataProvider) ?? first(item.provider);
  if (provider) extra.provider = provider;
  const year = first(item.year);
  if (year) extra.year = year;
  const rights = absoluteHttpUrl(first(item.rights));
  if (rights) extra.licenseUrl = rights;
  const country = first(item.country);
  if (country) extra.country = country;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/record/v2/search.json', {
        wskey: settings.apiKey ?? '',
        query: query.query,
        qf: 'TYPE:IMAGE',
        media: 'true',
        thumbnail: 'true',
        profile: 'standard',
        rows: PAGE_SIZE,
        start: (query.page - 1) * PAGE_SIZE + 1,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    const data = asRecord(parseJsonBody(response.body, 'europeana'));
    if (!data) throw new EngineParseError('europeana answered with JSON that is not an object');
    if (data.success === false) {
      const error = asString(data.error) ?? 'unknown error';
      if (
        response.status === 401 ||
        response.status === 403 ||
        /api ?key|wskey|unauthori[sz]ed|invalid key/i.test(error)
      ) {
        throw new EngineAccessDeniedError(`europeana refused the key: ${error}`);
      }
      throw new EngineParseError(`europeana answered with an error: ${error}`);
    }
    // A search without hits leaves items out altogether.
    return {
      results: asArray(data.items)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
