/**
 * One bottom-up pass over the DOM that measures every element: visible
 * characters, characters inside links, and "prose weight" — the non-link
 * text of its blocks, with short fragments (menu items, labels, buttons)
 * counting for less than sentences. The content scorer decides with these
 * numbers, so nothing calls textContent repeatedly on nested elements.
 */
import { isHidden, SKIPPED } from './block-text.js';
import { PROSE_BLOCK_TAGS } from './html-tags.js';

export interface ElementStats {
  /** Visible non-whitespace characters. */
  chars: number;
  /** Of those, characters inside <a>. */
  linkChars: number;
  /** Prose weight of the subtree. */
  weight: number;
}

/** Elements whose own text forms one block (a paragraph, an item, a cell). */
const BLOCKS = new Set([
  ...PROSE_BLOCK_TAGS,
  'dl',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'table',
  'figure',
  'figcaption',
  'pre',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'center',
  'body',
  'html',
  'caption',
]);
/** A block of this many non-link characters counts in full; shorter ones count in proportion. */
const FULL_BLOCK_CHARS = 80;

export function isSkipped(element: Element): boolean {
  return SKIPPED.has(element.localName) || isHidden(element);
}

/** Counting what a script would reveal too: hidden elements and <noscript>. */
function isSkippedEvenIfRevealed(element: Element): boolean {
  return element.localName !== 'noscript' && SKIPPED.has(element.localName);
}

/**
 * No word of prose is longer than this; a longer unbroken run (a broken `&aaaa…;` or `&#9999…;` reference, a base64
 * blob, a row of dashes) is no word and counts for nothing, so junk no one reads cannot outweigh an article or a
 * listing without prose. Scripts written without spaces (CJK, Thai, Lao, Khmer, Myanmar, Tibetan) have
 * sentence-long runs and are counted in full.
 */
export const LONGEST_WORD_CHARS = 64;

/**
 * By UTF-16 code unit: CJK and kana, Hangul syllables, compatibility ideographs and full-width forms; Thai to
 * Myanmar; Khmer. Not the replacement character U+FFFD (invalid bytes decode to it, so a broken reference with bad
 * bytes in it was counted in full), surrogates or private use.
 */
function isWrittenWithoutSpaces(code: number): boolean {
  if (code >= 0x2e80) {
    return (
      code <= 0x9fff ||
      (code >= 0xac00 && code <= 0xd7af) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xff00 && code <= 0xffef)
    );
  }
  return (code >= 0x0e00 && code <= 0x109f) || (code >= 0x1780 && code <= 0x17ff);
}

/** Visible characters of a text, without runs longer than LONGEST_WORD_CHARS (unless a without-spaces script). */
export function nonSpaceLength(text: string): number {
  let count = 0;
  let run = 0;
  let counted = 0;
  let spaceless = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 160) {
      run = 0;
      counted = 0;
      spaceless = false;
      continue;
    }
    run++;
    if (!spaceless && isWrittenWithoutSpaces(code)) {
      spaceless = true;
      // The run's characters not counted so far count after all.
      count += run - 1 - counted;
      counted = run - 1;
    }
    if (spaceless || run <= LONGEST_WORD_CHARS) {
      count++;
      counted++;
    } else if (counted > 0) {
      count -= counted;
      counted = 0;
    }
  }
  return count;
}

/**
 * Prose weight of one block. Sentences weigh in full; a "Home", a price label
 * or a date counts for little. Link text counts for `linkWeight` of plain text
 * (0 on ordinary pages, where links are pointers elsewhere).
 */
function blockWeight(chars: number, linkChars: number, linkWeight: number): number {
  const prose = chars - linkChars * (1 - linkWeight);
  if (prose <= 0) return 0;
  return prose * Math.min(1, (prose + 10) / FULL_BLOCK_CHARS);
}

export interface MeasureOptions {
  /** Measure hidden elements and <noscript> as if shown. */
  countHidden?: boolean;
  /** Share of plain-text weight that link text gets (default 0). */
  linkWeight?: number;
}

interface Accumulator {
  chars: number;
  linkChars: number;
}

export class ContentStats {
  private readonly byElement = new Map<Element, ElementStats>();

  private readonly skip: (element: Element) => boolean;
  private readonly linkWeight: number;

  constructor(root: Element, options: MeasureOptions = {}) {
    this.skip = options.countHidden ? isSkippedEvenIfRevealed : isSkipped;
    this.linkWeight = options.linkWeight ?? 0;
    this.measure(root, false, { chars: 0, linkChars: 0 });
  }

  of(element: Element): ElementStats {
    return this.byElement.get(element) ?? { chars: 0, linkChars: 0, weight: 0 };
  }

  private measure(element: Element, insideLink: boolean, enclosing: Accumulator): ElementStats {
    const stats: ElementStats = { chars: 0, linkChars: 0, weight: 0 };
    const own = BLOCKS.has(element.localName) ? { chars: 0, linkChars: 0 } : enclosing;
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const length = nonSpaceLength((child as Text).data);
        stats.chars += length;
        own.chars += length;
        if (insideLink) {
          stats.linkChars += length;
          own.linkChars += length;
        }
      } else if (child.nodeType === 1) {
        const childElement = child as Element;
        if (this.skip(childElement)) continue;
        const inner = this.measure(childElement, insideLink || childElement.localName === 'a', own);
        stats.chars += inner.chars;
        stats.linkChars += inner.linkChars;
        stats.weight += inner.weight;
      }
    }
    if (own !== enclosing) stats.weight += blockWeight(own.chars, own.linkChars, this.linkWeight);
    this.byElement.set(element, stats);
    return stats;
  }
}
