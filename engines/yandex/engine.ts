/**
 * Yandex web search (yandex.com/search/?text=&p=). Organic results are
 * `li.serp-item`; ads (links through yabs.yandex.*) and wizards (data-fast-wzrd,
 * e.g. the video carousel) are skipped. Blocked clients are redirected to
 * /showcaptcha, which is reported as a CAPTCHA.
 */
import { defineEngine, EngineCaptchaError, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const AD_HOST = /^yabs\.yandex\./;

export function isCaptchaPage(body: string, finalUrl: string): boolean {
  return /\/showcaptcha|\/checkcaptcha/.test(finalUrl) || /showcaptcha|checkcaptcha|smart-captcha/i.test(body);
}

function parseResults(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('li.serp-item')) {
    if (item.hasAttribute('data-fast-wzrd')) continue;
    const link = item.querySelector('a.organic__url') ?? item.querySelector('h2 a');
    const url = absoluteHttpUrl(link?.getAttribute('href'));
    if (!url || AD_HOST.test(new URL(url).hostname)) continue;
    const title = textOf(item.querySelector('.organic__url-text') ?? link);
    if (!title) continue;
    const snippet = textOf(item.querySelector('.TextContainer, .organic__content-wrapper, .text-container'));
    results.push({ url, title, snippet });
  }
  return results;
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    // p is 0-based.
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/search/', { text: query.query, p: query.page - 1 }) };
  },

  parseResponse(response) {
    if (/\/showcaptcha/.test(response.url)) throw new EngineCaptchaError('yandex redirected to its showcaptcha page');
    const results = parseResults(response.body);
    if (results.length === 0 && isCaptchaPage(response.body, response.url))
      throw new EngineCaptchaError('yandex answered with its CAPTCHA page');
    return { results };
  },
});
