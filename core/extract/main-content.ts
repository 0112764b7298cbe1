/**
 * Finds the main content of a page: Readability first; when it finds nothing
 * useful, the page body with navigation, headers, footers, sidebars and forms
 * removed.
 */
import { Readability } from '@mozilla/readability';
import { readBlockText, type BlockText } from './block-text.js';
import { contentRoot, parseDocument } from './parse-document.js';
import { countWords } from './words.js';

export interface MainContent {
  element: Element;
  blockText: BlockText;
  wordCount: number;
  /** Readability's byline, when it found one. */
  byline: string | null;
  source: 'readability' | 'body';
}

const BOILERPLATE = 'nav, header, footer, aside, script, style, noscript, form, template, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"], [hidden]';
/** Below this many words Readability's pick is compared with the cleaned body. */
const SMALL_ARTICLE_WORDS = 80;

function measure(element: Element): { blockText: BlockText; wordCount: number } {
  const blockText = readBlockText(element);
  return { blockText, wordCount: countWords(blockText.text) };
}

// keepClasses: code blocks keep "language-*" for the markdown fence; the classes are never output.
function runReadability(doc: Document): { element: Element; byline: string | null } | null {
  try {
    const article = new Readability<Element>(doc, { serializer: (node) => node as Element, keepClasses: true }).parse();
    if (!article?.content) return null;
    return { element: article.content, byline: article.byline?.trim() || null };
  } catch {
    // Readability throws on some malformed documents; the body fallback still applies.
    return null;
  }
}

function cleanedBody(html: string): Element {
  // Readability has rewritten the first document, so the fallback parses the page again;
  // this happens only for pages where Readability found little.
  const root = contentRoot(parseDocument(html));
  for (const element of Array.from(root.querySelectorAll(BOILERPLATE))) element.remove();
  return root;
}

/** Consumes `doc`: Readability rewrites it in place (read everything else from it first). */
export function findMainContent(doc: Document, html: string): MainContent {
  const article = runReadability(doc);
  const fromArticle = article ? { ...measure(article.element), element: article.element } : null;
  if (fromArticle && fromArticle.wordCount >= SMALL_ARTICLE_WORDS) {
    return { ...fromArticle, byline: article?.byline ?? null, source: 'readability' };
  }
  const body = cleanedBody(html);
  const fromBody = { ...measure(body), element: body };
  if (fromArticle && fromArticle.wordCount > 0 && fromArticle.wordCount * 2 >= fromBody.wordCount) {
    return { ...fromArticle, byline: article?.byline ?? null, source: 'readability' };
  }
  return { ...fromBody, byline: null, source: 'body' };
}
