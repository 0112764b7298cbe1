/**
 * The one GFM pipe-table writer: a header row, the delimiter row a GFM viewer needs to see a table, then the rows;
 * cells escaped, on one line.
 */
import { escapeMarkdownText } from './escape.js';

function tableCell(value: string): string {
  return escapeMarkdownText(value.replace(/\n/g, ' '));
}

function tableLine(cells: readonly string[]): string {
  return `| ${cells.map(tableCell).join(' | ')} |`;
}

export function renderMarkdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [tableLine(headers), `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map(tableLine)].join('\n');
}
