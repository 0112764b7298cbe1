/**
 * Visible text and links of one table cell. Nested tables are skipped: they
 * are extracted as tables of their own, so repeating their text here would
 * count it twice.
 */
import { HEADING_TAGS } from '../extract/html-tags.js';

export interface CellLink {
  text: string;
  href: string;
}

export interface CellContent {
  text: string;
  links: CellLink[];
  /** The cell holds at least one <table> of its own. */
  hasNestedTable: boolean;
  /** The cell holds a form control, a sign of a form laid out with a table. */
  hasFormControl: boolean;
}

const SKIPPED = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);
const FORM_CONTROLS = new Set(['form', 'input', 'select', 'textarea', 'button']);
// Block boundaries separate words even where the markup has no whitespace between them.
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  ...HEADING_TAGS,
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'ul',
]);
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
// MediaWiki's stylesheet hides sort keys; pages are usually read without their CSS.
const HIDDEN_CLASS = /(?:^|\s)sortkey(?:\s|$)/;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Hidden markup (Wikipedia's sort keys, for one) is not part of what a reader sees. */
export function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden')) return true;
  const style = element.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  const className = element.getAttribute('class');
  return className !== null && HIDDEN_CLASS.test(className);
}

export function readCell(cell: Element): CellContent {
  const content: CellContent = { text: '', links: [], hasNestedTable: false, hasFormControl: false };
  const parts: string[] = [];
  walk(cell, parts, content);
  content.text = collapseWhitespace(parts.join(''));
  return content;
}

function walk(node: Node, parts: string[], content: CellContent): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === TEXT_NODE) {
      parts.push((child as Text).data);
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const element = child as Element;
    const name = element.localName;
    if (name === 'table') {
      content.hasNestedTable = true;
      parts.push(' ');
      continue;
    }
    if (FORM_CONTROLS.has(name) && element.getAttribute('type')?.toLowerCase() !== 'hidden')
      content.hasFormControl = true;
    if (SKIPPED.has(name) || isHidden(element)) continue;
    if (name === 'br') {
      parts.push(' ');
      continue;
    }
    const isBlock = BLOCKS.has(name);
    if (isBlock) parts.push(' ');
    if (name === 'a' && element.hasAttribute('href')) {
      const linkParts: string[] = [];
      walk(element, linkParts, content);
      for (const part of linkParts) parts.push(part);
      content.links.push({ text: collapseWhitespace(linkParts.join('')), href: element.getAttribute('href')!.trim() });
    } else {
      walk(element, parts, content);
    }
    if (isBlock) parts.push(' ');
  }
}
