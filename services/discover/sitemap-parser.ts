/**
 * Reading one sitemap document: an XML <urlset>, an XML <sitemapindex>, or
 * a plain-text list of URLs, one per line (sitemaps.org protocol).
 */
import { AppError } from '../../core/errors.js';
import { localName, xmlTokens } from './xml-tokens.js';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

export interface SitemapDocument {
  /** 'index' entries are further sitemaps; 'urlset' entries are pages (plain-text sitemaps included). */
  kind: 'urlset' | 'index';
  entries: SitemapEntry[];
}

/**
 * Parses a decoded sitemap. Returns null when the text is not a sitemap at
 * all (an HTML page, a feed); throws AppError UPSTREAM_FAILED when it is
 * XML but broken.
 */
export function parseSitemap(text: string): SitemapDocument | null {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) return parseTextSitemap(trimmed);
  if (/^<!doctype\s+html/i.test(trimmed)) return null;
  return parseXmlSitemap(trimmed);
}

function parseTextSitemap(text: string): SitemapDocument | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const entries = lines.filter(isHttpUrl).map((loc) => ({ loc }));
  if (lines.length > 0 && entries.length === 0) return null;
  return { kind: 'urlset', entries };
}

function parseXmlSitemap(xml: string): SitemapDocument | null {
  let kind: SitemapDocument['kind'] | null = null;
  const entries: SitemapEntry[] = [];
  // Element names from the root down; an entry's <loc> must be its direct child (not image:loc).
  const path: string[] = [];
  let current: { loc?: string; lastmod?: string } | null = null;
  let text = '';
  try {
    for (const token of xmlTokens(xml)) {
      if (token.type === 'text') {
        text += token.value;
        continue;
      }
      const name = localName(token.name);
      if (token.type === 'open') {
        if (path.length === 0) {
          if (name === 'urlset') kind = 'urlset';
          else if (name === 'sitemapindex') kind = 'index';
          else return null; // <html>, <rss>, <feed>: not a sitemap.
        } else if (path.length === 1 && (name === 'url' || name === 'sitemap')) {
          current = {};
        }
        path.push(name);
        text = '';
        continue;
      }
      path.pop();
      if (current && path.length === 2 && (name === 'loc' || name === 'lastmod')) {
        const value = text.trim();
        if (value !== '') current[name] = value;
      } else if (current && path.length === 1) {
        if (current.loc !== undefined)
          entries.push(current.lastmod ? { loc: current.loc, lastmod: current.lastmod } : { loc: current.loc });
        current = null;
      }
      text = '';
    }
  } catch (error) {
    if (error instanceof AppError)
      throw new AppError(error.code, `sitemap is not well-formed: ${error.message}`, { cause: error });
    throw error;
  }
  return kind ? { kind, entries } : null;
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value);
}
