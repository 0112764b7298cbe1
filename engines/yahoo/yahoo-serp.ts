/**
 * Yahoo's result-page markup, shared by yahoo and aol (AOL search is served
 * by the same Yahoo platform). Organic results are `div.algo-sr`; their links
 * go through Yahoo's click tracker, which carries the target as /RU=<encoded>/.
 */
import type { EngineResult } from '../../core/engine.js';
import { absoluteHttpUrl, parseHtmlDocument, textOf } from '../_lib/html-document.js';

/** The target of a r.search.yahoo.com (or search.aol.com/click) link; other links pass through. */
export function decodeYahooRedirect(href: string): string | undefined {
  const target = /\/RU=([^/]+)\//.exec(href)?.[1];
  if (target === undefined) return absoluteHttpUrl(href);
  try {
    return absoluteHttpUrl(decodeURIComponent(target));
  } catch {
    return undefined;
  }
}

/** Newer pages put the display URL in a span inside the title link; aria-label holds the bare title. */
function titleOf(link: Element): string {
  const label = link.getAttribute('aria-label');
  if (label?.trim()) return label.replace(/\s+/g, ' ').trim();
  const clone = link.cloneNode(true) as Element;
  for (const span of clone.querySelectorAll('span')) span.remove();
  return textOf(clone) || textOf(link);
}

export function parseYahooSerp(html: string): EngineResult[] {
  const document = parseHtmlDocument(html);
  const results: EngineResult[] = [];
  for (const item of document.querySelectorAll('div.algo-sr')) {
    const link = item.querySelector('h3 a') ?? item.querySelector('.compTitle a');
    if (!link) continue;
    const url = decodeYahooRedirect(link.getAttribute('href') ?? '');
    const title = titleOf(link);
    if (!url || !title) continue;
    results.push({ url, title, snippet: textOf(item.querySelector('.compText')) });
  }
  return results;
}

/** Yahoo's bot checks and EU consent walls are served instead of results. */
export function isYahooBlockPage(html: string, finalUrl: string): boolean {
  return /^https?:\/\/(consent|guce)\./.test(finalUrl) || /captcha|unusual traffic/i.test(html.slice(0, 20000));
}
