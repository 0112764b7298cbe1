/**
 * Plain text of a DOM subtree with its layout kept: block elements become
 * paragraphs separated by blank lines, list items, table rows and <br> become
 * single line breaks, table cells are joined by " | ", and <pre> keeps its
 * whitespace. Invisible elements (scripts, styles, hidden nodes) are skipped.
 */
import { NON_CONTENT_TAGS, PROSE_BLOCK_TAGS } from './html-tags.js';

export interface BlockText {
  /** Paragraphs separated by blank lines. */
  text: string;
  /** Characters of text inside links (whitespace collapsed), for link density. */
  linkChars: number;
}

/** Elements whose text is never page content (shared with content-stats.ts). */
export const SKIPPED = new Set<string>([...NON_CONTENT_TAGS]);
const PARAGRAPH_BLOCKS = new Set([
  ...PROSE_BLOCK_TAGS,
  'dl',
  'menu',
  'figure',
  'figcaption',
  'table',
  'caption',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'hr',
  'center',
  'hgroup',
  'legend',
  'body',
  'html',
  'dialog',
]);
const LINE_BLOCKS = new Set(['li', 'tr', 'dt', 'dd']);
const CELLS = new Set(['td', 'th']);

const enum Break {
  None = 0,
  Line = 1,
  Paragraph = 2,
}

const SEPARATOR = ['', '\n', '\n\n'] as const;
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

/** Webflow's conditional visibility: its stylesheet sets `display: none !important` on this class. */
const HIDDEN_CLASS = 'w-condition-invisible';

/** Hidden from view. Not `aria-hidden`: it hides from screen readers only (shops print prices and names in it). */
export function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden')) return true;
  const style = element.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  const classes = element.getAttribute('class');
  return classes !== null && classes.includes(HIDDEN_CLASS);
}

class TextCollector {
  private out = '';
  private line = '';
  /** Whether the line has more than whitespace yet, kept as text arrives (a trim per cell would rescan the line). */
  private lineHasText = false;
  private pending: Break = Break.None;
  linkChars = 0;

  text(value: string, insideLink: boolean): void {
    this.line += value;
    if (!this.lineHasText && /\S/.test(value)) this.lineHasText = true;
    if (insideLink) this.linkChars += value.replace(/\s+/g, ' ').trim().length;
  }

  cell(): void {
    if (this.lineHasText) this.line += ' | ';
  }

  breakWith(kind: Break): void {
    this.flushLine();
    if (kind > this.pending) this.pending = kind;
  }

  preformatted(value: string): void {
    this.breakWith(Break.Paragraph);
    const kept = value.replace(/^\n+|\s+$/g, '');
    if (kept) this.append(kept);
    this.pending = Break.Paragraph;
  }

  finish(): string {
    this.flushLine();
    return this.out;
  }

  private flushLine(): void {
    const collapsed = withoutTrailingSeparators(this.line.replace(/\s+/g, ' ').trim());
    this.line = '';
    this.lineHasText = false;
    if (collapsed) this.append(collapsed);
  }

  private append(value: string): void {
    this.out += (this.out ? SEPARATOR[Math.max(this.pending, Break.Line)] : '') + value;
    this.pending = Break.None;
  }
}

/**
 * A row's line without the " | " its empty last cells left: one scan from
 * the end (the regex /(\s*\|\s*)+$/ it replaces backtracks exponentially
 * when the spaces between pipes are not collapsed, and rescans on every try).
 */
function withoutTrailingSeparators(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === '|' || line[end - 1] === ' ')) end--;
  return end === line.length ? line : line.slice(0, end);
}

function walk(node: Node, collector: TextCollector, insideLink: boolean, includeHidden = false): void {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3) {
      collector.text((child as Text).data, insideLink);
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    const name = element.localName;
    if (SKIPPED.has(name) || (!includeHidden && isHidden(element))) continue;
    if (name === 'br') {
      collector.breakWith(Break.Line);
    } else if (name === 'pre') {
      collector.preformatted(element.textContent ?? '');
    } else if (PARAGRAPH_BLOCKS.has(name)) {
      collector.breakWith(Break.Paragraph);
      walk(element, collector, insideLink, includeHidden);
      collector.breakWith(Break.Paragraph);
    } else if (LINE_BLOCKS.has(name)) {
      collector.breakWith(Break.Line);
      walk(element, collector, insideLink, includeHidden);
      collector.breakWith(Break.Line);
    } else {
      if (CELLS.has(name)) collector.cell();
      walk(element, collector, insideLink || name === 'a', includeHidden);
    }
  }
}

/**
 * `includeHidden`: read what CSS or ARIA hides too (collapsed tabs and
 * accordions of the main content), as the markdown does.
 */
export function readBlockText(root: Node, includeHidden = false): BlockText {
  const collector = new TextCollector();
  walk(root, collector, false, includeHidden);
  return { text: collector.finish(), linkChars: collector.linkChars };
}
