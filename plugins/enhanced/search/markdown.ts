/** Markdown of a list of text blocks: headings, list items, code fences, quotes and table rows keep their form; the text itself is escaped. */
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

export function blocksToMarkdown(blocks: TextBlock[]): string {
  let out = '';
  let previous: TextBlock | undefined;
  for (const block of blocks) {
    // Consecutive list items and table rows stay one list or table.
    const tight = previous && previous.kind === block.kind && (block.kind === 'list_item' || block.kind === 'table_row');
    out += (out ? (tight ? '\n' : '\n\n') : '') + blockMarkdown(block);
    previous = block;
  }
  return out;
}
