/**
 * Builds the page served for a rewritten result link: a real captured page,
 * chosen by a hash of the URL so the same link always gets the same page,
 * retitled from the original URL's words so different results look
 * different, and with a canonical link to its sandbox URL.
 */
import type { FixturePage } from './fixture-pages.js';

// URL path words that say nothing about the page.
const NOISE_WORDS = new Set(['www', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'index', 'wiki', 'amp']);

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function isIdLike(word: string): boolean {
  return /^\d{5,}$/.test(word) || (/^[0-9a-f]{8,}$/i.test(word) && /\d/.test(word));
}

/** "/2020-audi-e-tron_sportback/" on example.com → "2020 Audi E Tron Sportback | example.com". */
export function titleFromUrl(host: string, pathAndQuery: string): string {
  const [pathname = '', query = ''] = pathAndQuery.split('?', 2);
  const queryValues = query.split('&').map((pair) => pair.split('=')[1] ?? '');
  const words = [safeDecode(pathname), ...queryValues.map(safeDecode)]
    .join(' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !NOISE_WORDS.has(word.toLowerCase()) && !isIdLike(word))
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  const site = host.replace(/^www\./, '');
  return words.length ? `${words.join(' ')} | ${site}` : site;
}

/** FNV-1a: small, stable, good enough to spread links over a handful of pages. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

export function pickPage(key: string, pages: FixturePage[]): FixturePage {
  if (!pages.length) throw new Error('sandbox web: no real pages to serve');
  return pages[hash(key) % pages.length]!;
}

const TITLE_META = /\b(property|name)\s*=\s*["']?(og:title|twitter:title|dc\.title|title)["']?/i;
const URL_META = /\b(property|name)\s*=\s*["']?(og:url|twitter:url)["']?/i;

function replaceMetaContent(html: string, title: string, canonicalUrl: string): string {
  return html.replace(/<meta\b[^>]*>/gi, (tag) => {
    const value = TITLE_META.test(tag) ? title : URL_META.test(tag) ? canonicalUrl : undefined;
    if (value === undefined) return tag;
    return tag.replace(/\bcontent\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i, `content="${escapeHtml(value)}"`);
  });
}

function insertAfterOpeningTag(html: string, tagName: string, insertion: string): string | undefined {
  const opening = new RegExp(`<${tagName}\\b[^>]*>`, 'i').exec(html);
  if (!opening) return undefined;
  const end = opening.index + opening[0].length;
  return html.slice(0, end) + insertion + html.slice(end);
}

export function renderSitePage(page: FixturePage, title: string, canonicalUrl: string): string {
  const safeTitle = escapeHtml(title);
  let html = page.html.replace(/<link\b[^>]*\brel\s*=\s*["']?canonical["']?[^>]*>/gi, '');
  html = replaceMetaContent(html, title, canonicalUrl);

  const titleTag = /<title\b[^>]*>[\s\S]*?<\/title>/i;
  const head = `<link rel="canonical" href="${escapeHtml(canonicalUrl)}">`;
  html = titleTag.test(html)
    ? html.replace(titleTag, `<title>${safeTitle}</title>`)
    : (insertAfterOpeningTag(html, 'head', `<title>${safeTitle}</title>`) ?? `<title>${safeTitle}</title>${html}`);
  html = insertAfterOpeningTag(html, 'head', head) ?? `${head}${html}`;

  const h1 = /<h1\b([^>]*)>[\s\S]*?<\/h1>/i;
  html = h1.test(html)
    ? html.replace(h1, (_tag, attributes: string) => `<h1${attributes}>${safeTitle}</h1>`)
    : (insertAfterOpeningTag(html, 'body', `<h1>${safeTitle}</h1>`) ?? html);
  return html;
}
