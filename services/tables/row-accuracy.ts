/**
 * Scoring extracted tables against reference cells (the tables benchmark):
 * the share of reference rows found cell for cell among the extracted rows.
 */
import type { ExtractedTable } from './types.js';

/** WikiTableQuestions' .tsv: tab-separated, with \n, \p (pipe) and \\ escaped inside cells. */
export function parseWtqTsv(source: string): string[][] {
  return source
    .split('\n')
    .filter((line) => line !== '')
    .map((line) =>
      line
        .split('\t')
        .map((cell) => cell.replace(/\\(.)/g, (_, code: string) => (code === 'n' ? '\n' : code === 'p' ? '|' : code))),
    );
}

/**
 * Whitespace collapsed and numbered footnote markers ("[1]") removed: the
 * reference drops Wikipedia's citation links, the extractor keeps them as text.
 */
export function normalizeCell(text: string): string {
  return text
    .replace(/\[\d+\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The table's rows with the header first, in the reference's conventions:
 * "Top / Sub" header names read "Top Sub", and columns with no text in any
 * body row (image columns, empty notes) are left out.
 */
export function rowsWithHeader(table: ExtractedTable): string[][] {
  const header = table.header_rows > 0 ? [table.headers.map((name) => name.split(' / ').join(' '))] : [];
  const columns = Array.from({ length: table.column_count }, (_, column) => column);
  const kept =
    table.row_count === 0
      ? columns
      : columns.filter((column) => table.rows.some((row) => normalizeCell(row[column] ?? '') !== ''));
  return [...header, ...table.rows].map((row) => kept.map((column) => row[column] ?? ''));
}

export interface RowScore {
  expected: number;
  found: number;
}

/** Each reference row is matched at most once, so duplicated rows must be extracted as often. */
export function scoreRows(expected: string[][], extracted: string[][]): RowScore {
  const available = new Map<string, number>();
  for (const row of extracted) {
    const key = rowKey(row);
    available.set(key, (available.get(key) ?? 0) + 1);
  }
  let found = 0;
  for (const row of expected) {
    const key = rowKey(row);
    const count = available.get(key) ?? 0;
    if (count > 0) {
      found++;
      available.set(key, count - 1);
    }
  }
  return { expected: expected.length, found };
}

function rowKey(row: string[]): string {
  return JSON.stringify(row.map(normalizeCell));
}
