/**
 * Splits a page into text blocks: every block-level element that holds text
 * of its own (text not inside a nested block) becomes one block, with the
 * measurements the content filters need (words, characters inside links,
 * markup characters, class/id hints of it and its ancestors, whether it sits
 * in page furniture by the extractor's detector, services/extract/boilerplate.ts).
 * Nested blocks are separate blocks, so a wrapper <div> never swallows its paragraphs.
 */
import { inFurniture } from '../extract/boilerplate.js';
import { contentRoot, parseDocument } from '../extract/parse-document.js';
import { NON_CONTENT_TAGS, PROSE_BLOCK_TAGS } from '../extract/html-tags.js';

export type BlockKind = 'heading' | 'paragraph' | 'list_item' | 'code' | 'quote' | 'table_row' | 'other';

export interface TextBlock {
  index: number;
  tag: string;
  kind: BlockKind;
  /** 1–6 for headings. */
  level?: number;
  /** Whitespace collapsed, except in code blocks. */
  text: string;
  words: number;
  textChars: number;
  /** Characters of text inside <a> elements. */
  linkChars: number;
  /** Characters of the block's own markup (tags, attributes and text), for text density. */
  markupChars: number;
  /** Lower-cased tag names, classes and ids of the element and its ancestors, space separated. */
  hints: string;
  /** The block or an ancestor is page furniture (navigation, footer, share bar, cookie banner…: boilerplate.ts). */
  furniture: boolean;
}

const SKIPPED = new Set<string>([...NON_CONTENT_TAGS, 'img', 'video', 'audio']);
const BLOCKS = new Set([
  ...PROSE_BLOCK_TAGS,
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'pre',
  'figure',
  'figcaption',
  'form',
  'address',
  'details',
  'summary',
  'body',
  'html',
  'caption',
  'center',
  'fieldset',
  'menu',
  'hgroup',
  'dialog',
]);
const CELLS = new Set(['td', 'th']);
/** Blocks longer than this are cut: the filters and regexes work per block, which bounds their cost. */
export const MAX_BLOCK_CHARS = 5000;
const MAX_BLOCKS = 3000;

function kindOf(tag: string): { kind: BlockKind; level?: number } {
  if (/^h[1-6]$/.test(tag)) return { kind: 'heading', level: Number(tag[1]) };
  if (tag === 'p' || tag === 'dd' || tag === 'figcaption' || tag === 'address') return { kind: 'paragraph' };
  if (tag === 'li' || tag === 'dt') return { kind: 'list_item' };
  if (tag === 'pre') return { kind: 'code' };
  if (tag === 'blockquote') return { kind: 'quote' };
  if (tag === 'tr') return { kind: 'table_row' };
  return { kind: 'other' };
}

function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  return style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

function startTagChars(element: Element): number {
  let chars = element.tagName.length * 2 + 5;
  for (const attribute of Array.from(element.attributes)) chars += attribute.name.length + attribute.value.length + 4;
  return chars;
}

interface Gathered {
  parts: string[];
  linkChars: number;
  markupChars: number;
  nested: Element[];
}

/** Collects an element's own inline text, setting nested block elements aside. */
function gather(element: Element, into: Gathered, inLink: boolean): void {
  for (const node of Array.from(element.childNodes)) {
    if (node.nodeType === 3) {
      const text = node.textContent ?? '';
      into.parts.push(text);
      into.markupChars += text.length;
      if (inLink) into.linkChars += text.replace(/\s+/g, ' ').trim().length;
      continue;
    }
    if (node.nodeType !== 1) continue;
    const child = node as Element;
    const tag = child.tagName.toLowerCase();
    if (SKIPPED.has(tag) || isHidden(child)) continue;
    if (BLOCKS.has(tag)) {
      into.nested.push(child);
      continue;
    }
    if (tag === 'br') into.parts.push('\n');
    into.markupChars += startTagChars(child);
    if (CELLS.has(tag)) into.parts.push(' | ');
    gather(child, into, inLink || tag === 'a');
  }
}

function hintsOf(element: Element): { hints: string; inLink: boolean } {
  const hints: string[] = [];
  let inLink = false;
  for (let current: Element | null = element; current; current = current.parentElement) {
    const tag = current.tagName.toLowerCase();
    if (tag === 'a' && current !== element) inLink = true;
    // <body> and <html> classes describe the whole page ("navigation-with-keyboard"), not a block.
    if (tag !== 'body' && tag !== 'html')
      hints.push(tag, current.getAttribute('class') ?? '', current.getAttribute('id') ?? '');
  }
  return { hints: hints.join(' ').toLowerCase(), inLink };
}

export function countWords(text: string): number {
  return (text.match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? []).length;
}

/** The text blocks of an HTML page, in document order. */
export function pageBlocks(html: string): TextBlock[] {
  return blocksOf(contentRoot(parseDocument(html)));
}

export function blocksOf(root: Element): TextBlock[] {
  const blocks: TextBlock[] = [];
  // A stack walked depth-first keeps document order: a block's nested blocks come right after it.
  const stack: Element[] = [root];
  while (stack.length > 0 && blocks.length < MAX_BLOCKS) {
    const element = stack.pop()!;
    const tag = element.tagName.toLowerCase();
    if (tag === 'pre') {
      pushBlock(
        blocks,
        element,
        tag,
        element.textContent ?? '',
        0,
        (element.textContent ?? '').length + startTagChars(element),
      );
      continue;
    }
    const gathered: Gathered = { parts: [], linkChars: 0, markupChars: startTagChars(element), nested: [] };
    gather(element, gathered, tag === 'a');
    pushBlock(blocks, element, tag, gathered.parts.join(''), gathered.linkChars, gathered.markupChars);
    for (let i = gathered.nested.length - 1; i >= 0; i--) stack.push(gathered.nested[i]!);
  }
  return blocks;
}

function pushBlock(
  blocks: TextBlock[],
  element: Element,
  tag: string,
  raw: string,
  linkChars: number,
  markupChars: number,
): void {
  const code = tag === 'pre';
  let text = code
    ? raw.replace(/^\n+|\s+$/g, '')
    : raw
        .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
        .replace(/ ?\n ?/g, '\n')
        .replace(/\n{2,}/g, '\n')
        .trim();
  if (tag === 'tr') text = text.replace(/^\|\s*/, '').replace(/\s*\|\s*$/, '');
  // Empty table cells and separators carry nothing a filter or a reader can use.
  if (!/[\p{L}\p{N}]/u.test(text)) return;
  if (text.length > MAX_BLOCK_CHARS) text = text.slice(0, MAX_BLOCK_CHARS);
  const { hints, inLink } = hintsOf(element);
  // A block wrapped in a link (a teaser card, say) is link text through and through.
  if (inLink) linkChars = text.length;
  blocks.push({
    index: blocks.length,
    tag,
    ...kindOf(tag),
    text,
    words: countWords(text),
    textChars: text.length,
    linkChars: Math.min(linkChars, text.length),
    markupChars: Math.max(markupChars, text.length),
    hints,
    furniture: inFurniture(element),
  });
}
