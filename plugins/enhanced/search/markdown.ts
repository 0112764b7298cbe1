/** Markdown of a list of text blocks: headings, list items, code fences, quotes and table rows keep their form; the text itself is escaped. */
import { TimeSlicer } from '../../../core/time-slice.js';
import { escapeMarkdownText, fencedCode } from '../../../services/markdown/escape.js';
import type { TextBlock } from '../../../services/page-analysis/text-blocks.js';

function blockMarkdown(block: TextBlock): string {
  const text = (value: string): string => escapeMarkdownText(value);
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level ?? 2)} ${text(block.text.replace(/\n/g, ' '))}`;
    case 'list_item':
      return `- ${text(block.text.replace(/\n/g, ' '))}`;
    case 'code':
      return fencedCode(block.text);
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${text(line)}`)
        .join('\n');
    case 'table_row':
      // Cells arrive joined by " | " (blocks.ts): escape each, keep the separators.
      return `| ${block.text.replace(/\n/g, ' ').split(' | ').map(text).join(' | ')} |`;
    default:
      return text(block.text).replace(/\n/g, '  \n');
  }
}

/** Written in time slices: a megabyte page has thousands of blocks, each escaped on the event loop. */
export async function blocksToMarkdown(blocks: TextBlock[]): Promise<string> {
  const slicer = new TimeSlicer();
  const parts: string[] = [];
  let previous: TextBlock | undefined;
  for (const block of blocks) {
    // Consecutive list items and table rows stay one list or table.
    const tight =
      previous && previous.kind === block.kind && (block.kind === 'list_item' || block.kind === 'table_row');
    if (previous) parts.push(tight ? '\n' : '\n\n');
    parts.push(blockMarkdown(block));
    previous = block;
    await slicer.pause();
  }
  return parts.join('');
}
