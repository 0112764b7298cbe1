/**
 * Yahoo Finance search (query2.finance.yahoo.com/v1/finance/search), the JSON
 * endpoint behind the site's search box: matching instruments in quotes[]
 * and related stories in news[]. Quotes come first, then news.
 */
import {
  defineEngine,
  EngineAccessDeniedError,
  EngineParseError,
  EngineRateLimitedError,
  stripMarkup,
  type EngineResult,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl } from '../_lib/html-document.js';
import { asArray, asRecord, asString, parseJsonBody } from '../_lib/json-body.js';

const QUOTES_COUNT = 10;
const NEWS_COUNT = 10;
const QUOTE_PAGE = 'https://finance.yahoo.com/quote/';

function clean(value: unknown): string | undefined {
  const text = asString(value);
  const cleaned = text === undefined ? '' : stripMarkup(text);
  return cleaned || undefined;
}

function quoteToResult(value: unknown): EngineResult | undefined {
  const quote = asRecord(value);
  const symbol = clean(quote?.symbol);
  if (!quote || !symbol) return undefined;
  const name = clean(quote.longname) ?? clean(quote.shortname);
  const exchange = clean(quote.exchDisp) ?? clean(quote.exchange);
  const type = clean(quote.typeDisp) ?? clean(quote.quoteType);
  const sector = clean(quote.sectorDisp) ?? clean(quote.sector);
  const industry = clean(quote.industryDisp) ?? clean(quote.industry);
  const extra: Record<string, unknown> = { symbol };
  if (clean(quote.quoteType)) extra.quoteType = clean(quote.quoteType);
  if (clean(quote.exchange)) extra.exchange = clean(quote.exchange);
  if (exchange && exchange !== extra.exchange) extra.exchangeName = exchange;
  if (sector) extra.sector = sector;
  if (industry) extra.industry = industry;
  return {
    url: `${QUOTE_PAGE}${encodeURIComponent(symbol)}/`,
    title: name ? `${name} (${symbol})` : symbol,
    snippet: [type, exchange, [sector, industry].filter(Boolean).join(' / ')].filter(Boolean).join(' · '),
    extra,
  };
}

/** The widest of the thumbnail's resolutions. */
function thumbnailOf(value: unknown): string | undefined {
  const resolutions = asArray(asRecord(value)?.resolutions)
    .map(asRecord)
    .filter((entry): entry is Record<string, unknown> => entry !== undefined)
    .sort((a, b) => (Number(b.width) || 0) - (Number(a.width) || 0));
  for (const entry of resolutions) {
    const url = absoluteHttpUrl(asString(entry.url));
    if (url) return url;
  }
  return undefined;
}

function newsToResult(value: unknown): EngineResult | undefined {
  const story = asRecord(value);
  const url = absoluteHttpUrl(asString(story?.link));
  const title = clean(story?.title);
  if (!story || !url || !title) return undefined;
  const publisher = clean(story.publisher);
  const result: EngineResult = { url, title, snippet: publisher ?? '' };
  if (publisher) result.author = publisher;
  const seconds = story.providerPublishTime;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0)
    result.publishedDate = new Date(seconds * 1000).toISOString();
  const thumbnail = thumbnailOf(story.thumbnail);
  if (thumbnail) result.thumbnail = thumbnail;
  const tickers = asArray(story.relatedTickers).filter((ticker): ticker is string => typeof ticker === 'string');
  result.extra = { type: 'news', ...(tickers.length > 0 ? { relatedTickers: tickers } : {}) };
  return result;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/v1/finance/search', {
        q: query.query,
        quotesCount: QUOTES_COUNT,
        newsCount: NEWS_COUNT,
        lang: 'en-US',
        region: 'US',
      }),
      headers: { accept: 'application/json' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('yahoo finance answered 429 Too Many Requests');
    if (response.status === 401 || response.status === 403)
      throw new EngineAccessDeniedError(`yahoo finance denied access (${response.status})`);
    const data = asRecord(parseJsonBody(response.body, 'yahoo_finance'));
    const error = asRecord(asRecord(data?.finance)?.error);
    if (error)
      throw new EngineParseError(
        `yahoo finance answered with an error: ${asString(error.description) ?? asString(error.code) ?? 'unknown'}`,
      );
    if (!data || (!Array.isArray(data.quotes) && !Array.isArray(data.news)))
      throw new EngineParseError('yahoo finance answered without quotes or news');
    const results = [...asArray(data.quotes).map(quoteToResult), ...asArray(data.news).map(newsToResult)];
    return { results: results.filter((result): result is EngineResult => result !== undefined) };
  },
});
