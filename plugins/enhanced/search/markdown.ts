/**
 * Markdown of a list of text blocks: headings, list items, code fences, quotes and tables keep their form; the text
 * itself is escaped.
 */
import { TimeSlicer } from '../../../core/time-slice.js';
import { escapeMarkdownText, fencedCode } from '../../../services/markdown/escape.js';
import { renderMarkdownTable } from '../../../services/markdown/table.js';
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
    default:
      return text(block.text).replace(/\n/g, '  \n');
  }
}

/** Written in time slices: a megabyte page has thousands of blocks, each escaped on the event loop. */
export async function blocksToMarkdown(blocks: TextBlock[]): Promise<string> {
  const slicer = new TimeSlicer();
  const parts: string[] = [];
  let previous: TextBlock | undefined;
  let tableRows: string[][] = [];
  for (const block of blocks) {
    const continuesTable = previous?.kind === 'table_row' && block.kind === 'table_row';
    if (!continuesTable && tableRows.length > 0) {
      parts.push(tableMarkdown(tableRows));
      tableRows = [];
    }
    // Consecutive list items stay one list; consecutive table rows one table.
    if (previous && !continuesTable)
      parts.push(previous.kind === 'list_item' && block.kind === 'list_item' ? '\n' : '\n\n');
    // Cells arrive joined by " | " (text-blocks.ts); a table is written when its last row has come.
    if (block.kind === 'table_row') tableRows.push(block.text.replace(/\n/g, ' ').split(' | '));
    else parts.push(blockMarkdown(block));
    previous = block;
    await slicer.pause();
  }
  if (tableRows.length > 0) parts.push(tableMarkdown(tableRows));
  return parts.join('');
}

/**
 * A run of rows as a GFM table, its first row the header, widened to the widest row (a viewer drops cells past the
 * header's).
 */
function tableMarkdown(rows: string[][]): string {
  const [first = [], ...rest] = rows;
  const columns = Math.max(...rows.map((row) => row.length));
  const header = Array.from({ length: columns }, (_, i) => first[i] ?? '');
  return renderMarkdownTable(header, rest);
}
