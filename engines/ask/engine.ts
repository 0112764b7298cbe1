/**
 * Ask.com web search (www.ask.com/web?q=&page=). Results are plain links in
 * `.PartialSearchResults-item` blocks; there is no redirect to undo.
 */
import { defineEngine, EngineCaptchaError, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('.PartialSearchResults-item')) {
    const link = item.querySelector('a.PartialSearchResults-item-title-link');
    const url = absoluteHttpUrl(link?.getAttribute('href'));
    const title = textOf(link);
    if (!url || !title) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('.PartialSearchResults-item-abstract')) });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/web', { q: query.query, page: query.page }) };
  },

  parseResponse(response) {
    const results = parseResults(response.body);
    if (results.length === 0 && /captcha|unusual traffic/i.test(response.body))
      throw new EngineCaptchaError('ask answered with a bot check page');
    return { results };
  },
});
