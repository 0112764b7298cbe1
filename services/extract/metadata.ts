/**
 * Page metadata from <meta> tags, OpenGraph, JSON-LD, <html lang> and the
 * canonical link. JSON-LD wins for author, date and keywords (it is written
 * for machines); meta tags fill the gaps. Dates become ISO 8601.
 */
import { PartWarnings } from './contained.js';
import { toIsoDate } from './dates.js';
import { readJsonLdArticle } from './json-ld.js';
import { safeUrl } from './parse-document.js';
import type { PageMetadata } from './types.js';

const DATE_KEYS = [
  'article:published_time',
  'og:published_time',
  'og:article:published_time',
  'datepublished',
  'date',
  'dc.date',
  'dc.date.issued',
  'dc.date.created',
  'dcterms.created',
  'dcterms.issued',
  'dcterms.date',
  'parsely-pub-date',
  'pubdate',
  'publishdate',
  'publish-date',
  'publish_date',
  'sailthru.date',
  'article.published',
  'article_date_original',
  'citation_publication_date',
  'citation_date',
  'cxenseparse:recs:publishtime',
  'originalpublicationdate',
  'displaydate',
  'created',
];
const AUTHOR_KEYS = [
  'author',
  'article:author',
  'og:article:author',
  'dc.creator',
  'dcterms.creator',
  'parsely-author',
  'sailthru.author',
  'byl',
  'citation_author',
  'twitter:creator',
];
const DESCRIPTION_KEYS = ['description', 'og:description', 'twitter:description', 'dc.description'];
const KEYWORD_KEYS = ['keywords', 'news_keywords', 'parsely-tags', 'sailthru.tags'];

/** First value of each meta key (name, property or itemprop), keys lower-cased. */
function readMetaTags(doc: Document): Map<string, string> {
  const tags = new Map<string, string>();
  for (const meta of Array.from(doc.querySelectorAll('meta'))) {
    const key = (
      meta.getAttribute('property') ??
      meta.getAttribute('name') ??
      meta.getAttribute('itemprop') ??
      meta.getAttribute('http-equiv') ??
      ''
    )
      .trim()
      .toLowerCase();
    const content = (meta.getAttribute('content') ?? '').replace(/\s+/g, ' ').trim();
    if (key && content && !tags.has(key)) tags.set(key, content);
  }
  return tags;
}

function firstOf(
  tags: Map<string, string>,
  keys: string[],
  accept: (value: string) => boolean = () => true,
): string | null {
  for (const key of keys) {
    const value = tags.get(key);
    if (value && accept(value)) return value;
  }
  return null;
}

function isPersonName(value: string): boolean {
  return !/^https?:\/\/|^www\.|^@?\w+\.(com|net|org)\b/i.test(value) && !value.startsWith('@');
}

function splitKeywords(value: string | null): string[] {
  return value
    ? value
        .split(',')
        .map((keyword) => keyword.trim())
        .filter(Boolean)
    : [];
}

function dedupe(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function articleTags(doc: Document): string[] {
  return Array.from(doc.querySelectorAll('meta[property="article:tag"]')).flatMap((meta) =>
    splitKeywords(meta.getAttribute('content')),
  );
}

/** A date printed in the page markup (<time datetime>), preferring ones marked as the publication date. */
function markupDate(doc: Document): string | null {
  const marked = doc.querySelector('[itemprop="datePublished"]');
  const markedValue = marked?.getAttribute('datetime') ?? marked?.getAttribute('content') ?? marked?.textContent;
  if (markedValue?.trim()) return markedValue;
  const time = doc.querySelector(
    'article time[datetime], time[pubdate][datetime], time.published[datetime], time[datetime]',
  );
  return time?.getAttribute('datetime') ?? null;
}

function localeToLanguage(locale: string | null | undefined): string | null {
  const value = locale?.trim();
  return value ? value.replace('_', '-') : null;
}

/** JSON-LD that breaks its reader is left out (a warning in `warnings`); the meta tags still apply. */
export function readMetadata(doc: Document, pageUrl?: URL | null, warnings = new PartWarnings()): PageMetadata {
  const tags = readMetaTags(doc);
  const ld = warnings.contain('json_ld', () => readJsonLdArticle(doc), null);
  const openGraph: Record<string, string> = {};
  for (const [key, value] of tags) if (key.startsWith('og:')) openGraph[key.slice(3)] = value;

  const titleTag = (doc.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const author = ld?.authors.length ? ld.authors.join(', ') : firstOf(tags, AUTHOR_KEYS, isPersonName);
  const keywords = ld?.keywords.length
    ? ld.keywords
    : [...splitKeywords(firstOf(tags, KEYWORD_KEYS)), ...articleTags(doc)];
  const dateCandidates = [ld?.datePublished, ...DATE_KEYS.map((key) => tags.get(key)), markupDate(doc)];
  const canonicalHref =
    doc.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ?? openGraph.url ?? null;

  return {
    title: openGraph.title ?? ld?.headline ?? tags.get('twitter:title') ?? (titleTag || null),
    description: firstOf(tags, DESCRIPTION_KEYS) ?? ld?.description ?? null,
    author: author ?? null,
    publishedDate: dateCandidates.map((value) => toIsoDate(value)).find((date) => date !== null) ?? null,
    keywords: dedupe(keywords),
    siteName: openGraph.site_name ?? tags.get('application-name') ?? ld?.publisherName ?? null,
    language:
      doc.documentElement?.getAttribute('lang')?.trim() ||
      localeToLanguage(tags.get('content-language') ?? ld?.language ?? openGraph.locale),
    canonicalUrl: canonicalHref ? (safeUrl(canonicalHref, pageUrl ?? undefined)?.href ?? null) : null,
    openGraph,
  };
}

/**
 * An author name from a Readability byline ("By Jane Doe — May 2, 2020" → "Jane Doe"), or null when it does not look
 * like one.
 */
export function authorFromByline(byline: string | null): string | null {
  const name = byline
    ?.replace(/\s+/g, ' ')
    .replace(/^(written |posted )?by:?\s+/i, '')
    .split(/\s+[|—–·•]\s+|\s+-\s+|,\s*(?=\d)|\s+on\s+(?=\w+ \d)/)[0]
    ?.trim();
  if (!name || !/\p{L}/u.test(name) || name.split(' ').length > 6 || /\d{4}/.test(name)) return null;
  return name;
}
