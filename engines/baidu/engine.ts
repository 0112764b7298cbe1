/**
 * Baidu web search (www.baidu.com/s?wd=&pn=). Results are `div.c-container`
 * blocks with an h3 link. Organic links go through baidu.com/link?url=
 * redirects that cannot be decoded offline; "Aladdin" blocks (result-op)
 * carry their real target in the mu attribute, which is used instead.
 */
import { defineEngine, EngineCaptchaError, type EngineResult, type HttpRequestSpec } from '../../core/engine.js';
import { endpointUrl } from '../_lib/endpoint-url.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

const PAGE_SIZE = 10;
/** Blocks that are not results: related searches. */
const SKIPPED_TEMPLATES = new Set(['recommend_list']);
/** mu values such as http://3108.lightapp.baidu.com/ are internal placeholders, not targets. */
const PLACEHOLDER_HOST = /^\d+\./;

function aladdinTarget(item: Element): string | undefined {
  if (!item.classList.contains('result-op')) return undefined;
  const target = absoluteHttpUrl(item.getAttribute('mu'));
  return target && !PLACEHOLDER_HOST.test(new URL(target).hostname) ? target : undefined;
}

function parseResults(html: string, pageUrl: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('div.c-container')) {
    if (SKIPPED_TEMPLATES.has(item.getAttribute('tpl') ?? '')) continue;
    const link = item.querySelector('h3 a');
    const title = textOf(link);
    const url = aladdinTarget(item) ?? absoluteHttpUrl(link?.getAttribute('href'), pageUrl);
    if (!url || !title) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('.c-abstract')) });
  }
  return results;
}

function isSecurityCheck(response: { url: string; body: string }): boolean {
  return (
    /wappass\.baidu\.com|\/static\/captcha/.test(response.url) ||
    /百度安全验证|captcha/i.test(response.body.slice(0, 20000))
  );
}

export default defineEngine({
  buildRequest({ query, settings }): HttpRequestSpec {
    const params = { wd: query.query, pn: (query.page - 1) * PAGE_SIZE, rn: PAGE_SIZE, ie: 'utf-8' };
    return { method: 'GET', url: endpointUrl(settings.baseUrl, '/s', params) };
  },

  parseResponse(response) {
    const results = parseResults(response.body, response.url);
    if (results.length === 0 && isSecurityCheck(response))
      throw new EngineCaptchaError('baidu answered with its security check (CAPTCHA) page');
    return { results };
  },
});
