/** Markdown of a list of text blocks: headings, list items, code fences, quotes and table rows keep their form. */
import type { TextBlock } from './blocks.js';

function blockMarkdown(block: TextBlock): string {
  switch (block.kind) {
    case 'heading':
      return `${'#'.repeat(block.level ?? 2)} ${block.text.replace(/\n/g, ' ')}`;
    case 'list_item':
      return `- ${block.text.replace(/\n/g, ' ')}`;
    case 'code': {
      const fence = block.text.includes('```') ? '~~~' : '```';
      return `${fence}\n${block.text}\n${fence}`;
    }
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'table_row':
      return `| ${block.text.replace(/\n/g, ' ')} |`;
    default:
      return block.text.replace(/\n/g, '  \n');
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
