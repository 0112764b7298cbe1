/**
 * Bandcamp search result page (bandcamp.com/search?q=&page=): albums, tracks,
 * artists and labels. Each result is an li.searchresult; links lose their
 * from=search tracking parameters.
 */
import { defineEngine, EngineCaptchaError, type EngineResult } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "released March 3, 2017" → "2017-03-03". */
export function releaseDate(text: string): string | undefined {
  const match = /(?:released\s+)?([a-z]+)\s+(\d{1,2}),\s*(\d{4})/i.exec(text);
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1]!.toLowerCase());
  if (month < 0) return undefined;
  return `${match[3]}-${String(month + 1).padStart(2, '0')}-${match[2]!.padStart(2, '0')}`;
}

function cleanUrl(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const url = new URL(href);
  url.searchParams.delete('from');
  url.searchParams.delete('search_item_id');
  url.searchParams.delete('search_item_type');
  url.searchParams.delete('search_match_part');
  url.searchParams.delete('search_page_id');
  url.searchParams.delete('search_page_no');
  url.searchParams.delete('search_rank');
  url.searchParams.delete('search_sig');
  return url.href;
}

export default defineEngine({
  buildRequest({ query, settings }) {
    return {
      method: 'GET',
      url: endpointUrl(settings.baseUrl, '/search', { q: query.query, page: query.page > 1 ? query.page : undefined }),
      headers: { accept: 'text/html' },
    };
  },

  parseResponse(response) {
    const document = parseHtmlDocument(response.body);
    const items = Array.from(document.querySelectorAll('li.searchresult'));
    if (items.length === 0 && /captcha|are you a robot|unusual traffic/i.test(response.body))
      throw new EngineCaptchaError('bandcamp answered with a CAPTCHA page');
    const results: EngineResult[] = [];
    for (const item of items) {
      const heading = item.querySelector('.heading a');
      const url = cleanUrl(
        absoluteHttpUrl(
          item.querySelector('.itemurl a')?.getAttribute('href') ?? heading?.getAttribute('href'),
          response.url,
        ),
      );
      const title = textOf(heading);
      if (!url || !title) continue;
      const itemType = textOf(item.querySelector('.itemtype')).toLowerCase();
      const subhead = textOf(item.querySelector('.subhead'));
      const released = textOf(item.querySelector('.released'));
      const length = textOf(item.querySelector('.length'));
      const genre = textOf(item.querySelector('.genre')).replace(/^genre:\s*/i, '');
      const tags = textOf(item.querySelector('.tags')).replace(/^tags:\s*/i, '');
      const result: EngineResult = {
        url,
        title,
        snippet: [subhead, length, tags && `tags: ${tags}`].filter(Boolean).join(' · '),
      };
      const by = /^(?:from\s+.+\s+)?by\s+(.+)$/i.exec(subhead);
      if (by) result.author = by[1]!.trim();
      const date = releaseDate(released);
      if (date) result.publishedDate = date;
      const thumbnail = absoluteHttpUrl(item.querySelector('.art img')?.getAttribute('src'));
      if (thumbnail) result.thumbnail = thumbnail;
      result.extra = { ...(itemType ? { itemType } : {}), ...(genre ? { genre } : {}), ...(length ? { length } : {}) };
      results.push(result);
    }
    return { results };
  },
});
