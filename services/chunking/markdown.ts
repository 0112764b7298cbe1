/**
 * Markdown structure: ATX headings (# … ######) outside code fences, the
 * sections they open, and blocks (paragraphs, whole fenced code blocks).
 */
import type { Span, SpanSplitter } from './types.js';

export interface MarkdownSection extends Span {
  /** Titles of the enclosing headings, outermost first; empty before the first heading. */
  headingPath: string[];
  level: number;
  hasBody: boolean;
}

interface Line extends Span {
  content: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;

function linesOf(text: string, span: Span): Line[] {
  const lines: Line[] = [];
  let start = span.start;
  while (start < span.end) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline >= span.end ? span.end : newline + 1;
    const content = text.slice(start, newline === -1 || newline >= span.end ? end : newline).replace(/\r$/, '');
    lines.push({ start, end, content });
    start = end;
  }
  return lines;
}

/** Tracks fenced code blocks line by line: a fence closes with the same character, at least as long. */
class FenceTracker {
  private open: string | null = null;

  get isOpen(): boolean {
    return this.open !== null;
  }

  /** Feeds a line; says whether it belongs to a fenced block (its fences included). */
  inFence(line: string): boolean {
    const fence = FENCE.exec(line)?.[1];
    if (this.open === null) {
      if (fence === undefined) return false;
      this.open = fence;
      return true;
    }
    if (
      fence !== undefined &&
      fence[0] === this.open[0] &&
      fence.length >= this.open.length &&
      BLANK.test(line.slice(line.indexOf(fence) + fence.length))
    ) {
      this.open = null;
    }
    return true;
  }
}

function headingOf(line: string): { level: number; title: string } | null {
  const match = HEADING.exec(line);
  if (!match) return null;
  const title = (match[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
  return { level: match[1]!.length, title };
}

export function hasMarkdownHeadings(text: string): boolean {
  if (!/^ {0,3}#{1,6}(?:[ \t]|$)/m.test(text)) return false;
  return markdownSections(text).some((section) => section.level > 0);
}

/** Sections from one heading to the next (any level); text before the first heading is level 0. */
export function markdownSections(text: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const fences = new FenceTracker();
  const path: { level: number; title: string }[] = [];
  let current: MarkdownSection = { start: 0, end: 0, headingPath: [], level: 0, hasBody: false };
  for (const line of linesOf(text, { start: 0, end: text.length })) {
    const heading = fences.inFence(line.content) ? null : headingOf(line.content);
    if (heading) {
      if (current.end > current.start) sections.push(current);
      while (path.length > 0 && path[path.length - 1]!.level >= heading.level) path.pop();
      path.push(heading);
      current = {
        start: line.start,
        end: line.end,
        headingPath: path.map((entry) => entry.title),
        level: heading.level,
        hasBody: false,
      };
      continue;
    }
    current.end = line.end;
    if (!BLANK.test(line.content)) current.hasBody = true;
  }
  if (current.end > current.start) sections.push(current);
  return mergeEmptyHeadings(sections);
}

/** A heading directly followed by a sub-heading travels with its first subsection. */
function mergeEmptyHeadings(sections: MarkdownSection[]): MarkdownSection[] {
  const merged: MarkdownSection[] = [];
  let pendingStart: number | null = null;
  sections.forEach((section, i) => {
    const next = sections[i + 1];
    const start = pendingStart ?? section.start;
    if (!section.hasBody && section.level > 0 && next !== undefined && next.level > section.level) {
      pendingStart = start;
      return;
    }
    pendingStart = null;
    merged.push({ ...section, start });
  });
  return merged;
}

/** Blocks for packing an oversized section: blank-line separated paragraphs, fenced code blocks whole. */
export const splitMarkdownBlocks: SpanSplitter = (text, span) => {
  const blocks: Span[] = [];
  const fences = new FenceTracker();
  let blockStart = span.start;
  let afterBlank = false;
  const cutAt = (offset: number): void => {
    if (offset > blockStart && offset < span.end) {
      blocks.push({ start: blockStart, end: offset });
      blockStart = offset;
    }
  };
  for (const line of linesOf(text, span)) {
    const wasOpen = fences.isOpen;
    const inCode = fences.inFence(line.content);
    if (inCode && !wasOpen) cutAt(line.start); // a fence opens: the code block starts a block
    if (inCode && wasOpen && !fences.isOpen) cutAt(line.end); // the fence closes: the block ends here
    if (!inCode) {
      const blank = BLANK.test(line.content);
      if (!blank && afterBlank) cutAt(line.start);
      afterBlank = blank;
    } else {
      afterBlank = false;
    }
  }
  blocks.push({ start: blockStart, end: span.end });
  return blocks;
};
