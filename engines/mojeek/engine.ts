/**
 * Mojeek web search (www.mojeek.com/search?q=). Mojeek runs its own index;
 * results are `ul.results-standard > li` with the title link in h2 and the
 * snippet in p.s.
 */
import { defineEngine, EngineCaptchaError, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const PAGE_SIZE = 10;

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('ul.results-standard > li')) {
    const link = item.querySelector('h2 a.title') ?? item.querySelector('h2 a') ?? item.querySelector('a.ob');
    const url = absoluteHttpUrl(link?.getAttribute('href'));
    const title = textOf(link);
    if (!url || !title) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('p.s')) });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = {
      q: query.query,
      s: query.page > 1 ? (query.page - 1) * PAGE_SIZE + 1 : undefined,
      // safe=1 hides adult results; Mojeek has no moderate level.
      safe: query.safeSearch > 0 ? 1 : 0,
      lb: query.language === 'all' ? undefined : query.language,
    };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search', params) };
  },

  parseResponse(response) {
    const results = parseResults(response.body);
    if (results.length === 0 && /captcha|automated queries|unusual traffic/i.test(response.body)) {
      throw new EngineCaptchaError('mojeek answered with a block page');
    }
    return { results };
  },
});
