/**
 * tagesschau.de (ARD) search through the public tagesschau API:
 * GET /api2u/search/?searchText=&pageSize=&resultPage= (0-based pages),
 * answering searchResults[] of stories and videos.
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

const PAGE_SIZE = 20;
/** Teaser image variants, best fit for a result thumbnail first. */
const IMAGE_VARIANTS = ['16x9-256', '16x9-384', '16x9-512', '16x9-640', '1x1-144', '1x1-256'];

function clean(value: unknown): string {
  const text = asString(value);
  return text === undefined ? '' : stripMarkup(text);
}

function thumbnailOf(value: unknown): string | undefined {
  const variants = asRecord(asRecord(value)?.imageVariants);
  if (!variants) return undefined;
  for (const name of IMAGE_VARIANTS) {
    const url = absoluteHttpUrl(asString(variants[name]));
    if (url) return url;
  }
  for (const candidate of Object.values(variants)) {
    const url = absoluteHttpUrl(asString(candidate));
    if (url) return url;
  }
  return undefined;
}

function toResult(value: unknown): EngineResult | undefined {
  const item = asRecord(value);
  const url = absoluteHttpUrl(asString(item?.detailsweb)) ?? absoluteHttpUrl(asString(item?.shareURL));
  const title = clean(item?.title);
  if (!item || !url || !title) return undefined;
  const topline = clean(item.topline);
  const result: EngineResult = { url, title, snippet: clean(item.firstSentence) || topline };
  const date = asString(item.date) ? new Date(asString(item.date)!) : undefined;
  if (date && !Number.isNaN(date.getTime())) result.publishedDate = date.toISOString();
  const thumbnail = thumbnailOf(item.teaserImage);
  if (thumbnail) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  if (topline) extra.topline = topline;
  if (asString(item.type)) extra.type = item.type;
  const tags = asArray(item.tags)
    .map((tag) => asString(asRecord(tag)?.tag))
    .filter((tag): tag is string => Boolean(tag));
  if (tags.length > 0) extra.tags = tags;
  if (item.breakingNews === true) extra.breakingNews = true;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/api2u/search/', {
        searchText: query.query,
        pageSize: PAGE_SIZE,
        resultPage: query.page - 1,
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('tagesschau answered 429 Too Many Requests');
    const data = asRecord(parseJsonBody(response.body, 'tagesschau'));
    if (!data || !Array.isArray(data.searchResults))
      throw new EngineParseError('tagesschau answered without searchResults');
    return {
      results: asArray(data.searchResults)
        .map(toResult)
        .filter((result): result is EngineResult => result !== undefined),
    };
  },
});
