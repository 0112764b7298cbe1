/**
 * Startpage web search (www.startpage.com/sp/search). Parses the server-
 * rendered result blocks (div.w-gl__result: a.w-gl__result-title with an h3,
 * p.w-gl__description). Blocked clients are sent to /sp/captcha.
 */
import {
  defineEngine,
  EngineCaptchaError,
  type EngineResult,
  type HttpRequestSpec,
  type TimeRange,
} from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const TIME_RANGE: Record<TimeRange, string> = { day: 'd', week: 'w', month: 'm', year: 'y' };

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('div.w-gl__result')) {
    const link = item.querySelector('a.w-gl__result-title');
    const url = absoluteHttpUrl(link?.getAttribute('href'));
    const title = textOf(link?.querySelector('h3') ?? link);
    if (!url || !title) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('p.w-gl__description')) });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      query: query.query,
      cat: 'web',
      page: query.page,
      with_date: query.timeRange ? TIME_RANGE[query.timeRange] : undefined,
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/sp/search', params) };
  },

  parseResponse(response) {
    if (/\/sp\/captcha/.test(response.url)) throw new EngineCaptchaError('startpage redirected to its CAPTCHA page');
    const results = parseResults(response.body);
    if (results.length === 0 && /captcha|unusual traffic/i.test(response.body))
      throw new EngineCaptchaError('startpage answered with a CAPTCHA page');
    return { results };
  },
});
