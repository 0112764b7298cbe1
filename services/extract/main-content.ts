/**
 * Finds the main content of a page with Quarry's own content scorer
 * (content-scorer.ts), which works on articles and on forums, products,
 * listings and documentation alike.
 */
import { readBlockText, type BlockText } from './block-text.js';
import { DEFAULT_SETTINGS, selectContent } from './content-scorer.js';
import { jsonLdTypes } from './json-ld.js';
import { contentRoot } from './parse-document.js';
import { removeInterfaceLabels } from './interface-labels.js';
import { removeRepeatedBlocks } from './repeated-blocks.js';
import { countWords } from './words.js';

export interface MainContent {
  element: Element;
  /** The content's text, collapsed tabs and accordions included (as in the markdown). */
  blockText: BlockText;
  wordCount: number;
  /** Words a reader sees without opening anything: what decides whether the page is empty or a block page. */
  visibleWordCount: number;
  /** A byline found in the page, when there is one. */
  byline: string | null;
  source: 'scorer';
}

/** Most specific first: an author block often also holds the author's job title or photo credits. */
const BYLINE_SELECTORS = [
  '[itemprop="author"] [itemprop="name"]',
  '[rel="author"]',
  '.author-name',
  '[itemprop="author"]',
  '.byline',
  '.author',
];
const MAX_BYLINE_CHARS = 80;

/** A short byline read before the scorer removes it with the rest of the furniture. */
function findByline(doc: Document): string | null {
  for (const selector of BYLINE_SELECTORS) {
    const text = (doc.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text && text.length <= MAX_BYLINE_CHARS) return text;
  }
  return null;
}

const squash = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The page title repeated as a heading inside the content: it is already in `title`, as Readability also judges. */
function removeTitleHeading(element: Element, title: string): void {
  const wanted = squash(title);
  if (wanted.length < 8) return;
  const heading = element.querySelector('h1, h2');
  if (heading && squash(heading.textContent ?? '') === wanted) heading.remove();
}

/**
 * Paths of forum threads and comment pages across common forum software (not Q&A: comments under answers are asides).
 */
const DISCUSSION_PATH =
  /\/(t|topic|topics|thread|threads|discussion|discussions|forum|forums|comments|viewtopic|showthread)([/.-]|$)|\/(viewtopic|showthread)\.php/i;

/**
 * How forum software names a thread's page on its outer elements ("ThreadViewPage", XenForo's
 * data-template="thread_view").
 */
const THREAD_PAGE_NAME = /thread[-_]?(view|page)|topic[-_]?(view|page)|viewtopic|showthread/i;

function namesThreadPage(doc: Document): boolean {
  for (const element of doc.querySelectorAll('html, body, main, [role="main"], article')) {
    const names = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''} ${element.getAttribute('data-template') ?? ''}`;
    if (THREAD_PAGE_NAME.test(names)) return true;
  }
  return false;
}

/** A forum thread or comments page, where the comments are the content, not an appendix to it. */
function isDiscussion(doc: Document, pageUrl: URL | null): boolean {
  if (pageUrl && DISCUSSION_PATH.test(pageUrl.pathname)) return true;
  return jsonLdTypes(doc).has('DiscussionForumPosting') || namesThreadPage(doc);
}

/** Consumes `doc`: the scorer removes furniture from it in place (read everything else from it first). */
export function findMainContent(doc: Document, title: string, pageUrl: URL | null = null): MainContent {
  const byline = findByline(doc);
  const element = selectContent(contentRoot(doc), { ...DEFAULT_SETTINGS, discussion: isDiscussion(doc, pageUrl) });
  removeTitleHeading(element, title);
  removeRepeatedBlocks(element);
  removeInterfaceLabels(element);
  const blockText = readBlockText(element, true);
  const wordCount = countWords(blockText.text);
  // Hidden text alone (a screen-reader notice, a template) does not make a page content.
  const visibleWordCount = countWords(readBlockText(element).text);
  return { element, blockText, wordCount, visibleWordCount, byline, source: 'scorer' };
}
