/**
 * eBay search result pages (www.ebay.com/sch/i.html?_nkw=). Each listing is
 * an li.s-item with a.s-item__link, .s-item__title, .s-item__price and
 * friends. HTML scraping: a markup change shows up as zero results.
 */
import { defineEngine, EngineCaptchaError, EngineRateLimitedError, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const PLACEHOLDER_TITLE = /^shop on ebay$/i;
/** eBay's decoy first item links to this fake listing id. */
const PLACEHOLDER_ITEM = /\/itm\/123456\/?$/;
const BLOCK_PAGE = /pardon our interruption|splashui\/challenge|unusual traffic|are you a robot/i;

/** https://www.ebay.com/itm/<id>?hash=…&_trkparms=… → https://www.ebay.com/itm/<id> */
export function cleanItemUrl(href: string | null | undefined, base: string): string | undefined {
  const absolute = absoluteHttpUrl(href, base);
  if (!absolute) return undefined;
  const url = new URL(absolute);
  if (/\/itm\//.test(url.pathname)) {
    url.search = '';
    url.hash = '';
  }
  return url.href;
}

function listingTitle(item: Element): string {
  const title = item.querySelector('.s-item__title');
  if (!title) return '';
  // Badges such as "New Listing" sit inside the title in their own span.
  for (const badge of title.querySelectorAll('.LIGHT_HIGHLIGHT, .s-item__title--tag, .clipped')) badge.remove();
  return textOf(title);
}

function field(item: Element, selector: string): string | undefined {
  return textOf(item.querySelector(selector)) || undefined;
}

function toResult(item: Element, base: string): EngineResult | undefined {
  const link = item.querySelector('a.s-item__link') ?? item.querySelector('.s-item__info a[href]');
  const url = cleanItemUrl(link?.getAttribute('href'), base);
  const title = listingTitle(item);
  if (!url || !title || PLACEHOLDER_TITLE.test(title) || PLACEHOLDER_ITEM.test(url)) return undefined;
  const condition = field(item, '.s-item__subtitle .SECONDARY_INFO');
  const subtitle = [...item.querySelectorAll('.s-item__subtitle')].map(textOf).filter(Boolean).join(' · ');
  const result: EngineResult = { url, title, snippet: subtitle };
  const image = item.querySelector('.s-item__image img, img.s-item__image-img');
  const thumbnail =
    absoluteHttpUrl(image?.getAttribute('data-src'), base) ?? absoluteHttpUrl(image?.getAttribute('src'), base);
  if (thumbnail && !/\.gif(\?|$)/i.test(thumbnail)) result.thumbnail = thumbnail;
  const extra: Record<string, unknown> = {};
  const entries: [string, string | undefined][] = [
    ['price', field(item, '.s-item__price')],
    ['shipping', field(item, '.s-item__shipping, .s-item__logisticsCost')],
    ['location', field(item, '.s-item__location, .s-item__itemLocation')],
    ['condition', condition],
    ['bids', field(item, '.s-item__bids, .s-item__bidCount')],
    ['buyingFormat', field(item, '.s-item__purchase-options, .s-item__purchaseOptions, .s-item__formatBuyItNow')],
    ['timeLeft', field(item, '.s-item__time-left')],
    ['seller', field(item, '.s-item__seller-info-text')],
  ];
  for (const [name, value] of entries) if (value) extra[name] = value;
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

function parseListings(html: string, base: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const list = document.querySelector('ul.srp-results');
  const items = list ? [...list.children] : [...document.querySelectorAll('li.s-item')];
  const results: EngineResult[] = [];
  for (const item of items) {
    // After "No exact matches found", eBay lists results matching fewer words.
    if (item.matches('.srp-river-answer--REWRITE_START') || item.querySelector('.srp-river-answer--REWRITE_START'))
      break;
    if (!item.matches('li.s-item')) continue;
    const result = toResult(item, base);
    if (result) results.push(result);
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/sch/i.html', {
        _nkw: query.query,
        _pgn: query.page > 1 ? query.page : undefined,
      }),
      headers: { accept: 'text/html,application/xhtml+xml' },
    };
  },

  parseResponse(response) {
    if (response.status === 429) throw new EngineRateLimitedError('ebay answered 429 Too Many Requests');
    const results = parseListings(response.body, response.url || 'https://www.ebay.com/');
    if (results.length === 0 && (BLOCK_PAGE.test(response.body) || /splashui\/challenge/.test(response.url))) {
      throw new EngineCaptchaError('ebay answered with a bot check page');
    }
    return { results };
  },
});
