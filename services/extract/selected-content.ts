/**
 * A page's content as a scrape's options select it (Firecrawl's includeTags,
 * excludeTags, onlyMainContent): CSS selectors applied to the parsed page
 * before conversion, then either the main content or the whole page, as
 * markup and as markdown. Runs in the extraction worker pool.
 */
import { AppError } from '../../core/errors.js';
import { outboundLinkPolicy } from '../markdown/link-policy.js';
import { findMainContent } from './main-content.js';
import { toMarkdown } from './markdown.js';
import { baseUrlOf, contentRoot, parseDocument, safeUrl } from './parse-document.js';
import type { ExtractOptions } from './types.js';

export interface ContentSelection {
  /** false: the whole page rather than its main content. */
  onlyMainContent: boolean;
  /** Only the elements these selectors match are kept (all of the page when none). */
  includeTags?: string[];
  /** The elements these selectors match are removed first. */
  excludeTags?: string[];
  addressPolicy?: ExtractOptions['addressPolicy'];
}

export interface SelectedContent {
  html: string;
  markdown: string;
}

export function selectedContent(html: string, url: string, selection: ContentSelection): SelectedContent {
  const doc = parseDocument(html);
  for (const node of doc.querySelectorAll('script, style, noscript, template')) node.remove();
  for (const selector of selection.excludeTags ?? []) for (const node of matches(doc, selector)) node.remove();
  let root = contentRoot(doc);
  if (selection.includeTags && selection.includeTags.length > 0) {
    const kept = doc.createElement('div');
    const picked = selection.includeTags.flatMap((selector) => matches(doc, selector));
    // An element inside another picked one is already kept with it.
    for (const node of picked) if (!picked.some((other) => other !== node && other.contains(node))) kept.append(node);
    root = kept;
  } else if (selection.onlyMainContent) {
    const title = (doc.querySelector('title')?.textContent ?? '').trim();
    root = findMainContent(doc, title, safeUrl(url)).element;
  }
  const pageUrl = safeUrl(url);
  const markdown = toMarkdown(root, baseUrlOf(doc, url), pageUrl, outboundLinkPolicy(selection.addressPolicy));
  return { html: root.innerHTML.trim(), markdown };
}

function matches(doc: Document, selector: string): Element[] {
  try {
    return [...doc.querySelectorAll(selector)];
  } catch {
    throw new AppError('INVALID_INPUT', `includeTags/excludeTags: "${selector}" is not a CSS selector`, {
      details: { selector },
    });
  }
}
