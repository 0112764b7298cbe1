/**
 * Tables of an HTML page as rows of strings: spans expanded into a full grid,
 * header rows found and named, links resolved, layout tables told apart from
 * data tables (docs/tables.md).
 */
import { AppError } from '../../core/errors.js';
import { baseUrlOf, parseDocument, safeUrl } from '../extract/parse-document.js';
import { readCell } from './cell-content.js';
import { combineHeaderNames, countHeaderRows } from './header-rows.js';
import { layoutReason } from './layout-heuristics.js';
import { TableOutputBudget } from './output-budget.js';
import { buildGrid, rowsByTable, type TableGrid } from './table-grid.js';
import {
  TABLE_STRATEGIES,
  type ExtractTablesOptions,
  type ExtractTablesResult,
  type ExtractedTable,
  type TableLink,
  type TableStrategy,
} from './types.js';

export function extractTables(html: string, options: ExtractTablesOptions = {}): ExtractTablesResult {
  if (typeof html !== 'string') throw new AppError('INVALID_INPUT', 'html_content must be a string');
  const strategy = checkedStrategy(options.strategy);
  if (options.baseUrl !== undefined && options.baseUrl !== '' && safeUrl(options.baseUrl) === null) {
    throw new AppError('INVALID_INPUT', `base_url is not an absolute URL: ${options.baseUrl}`);
  }
  const doc = parseDocument(html);
  const base = baseUrlOf(doc, options.baseUrl ?? '');
  const budget = new TableOutputBudget(html.length);
  const rowsOf = rowsByTable(doc.documentElement);

  const tables: ExtractedTable[] = [];
  let index = 0;
  for (const element of Array.from(doc.querySelectorAll('table'))) {
    if (budget.exhausted) break;
    const grid = buildGrid(rowsOf.get(element) ?? [], budget);
    const isLayout = layoutReason(element, grid) !== null;
    const table = toExtractedTable(element, grid, index++, isLayout, base, budget);
    if (keeps(strategy, table, grid)) tables.push(table);
  }
  return { tables, strategy, truncated: budget.truncated };
}

function checkedStrategy(strategy: unknown): TableStrategy {
  if (strategy === undefined || strategy === null || strategy === '') return 'auto';
  if (TABLE_STRATEGIES.includes(strategy as TableStrategy)) return strategy as TableStrategy;
  throw new AppError('INVALID_INPUT', `Unknown table strategy: ${String(strategy)}`, {
    details: { allowed: TABLE_STRATEGIES },
  });
}

function keeps(strategy: TableStrategy, table: ExtractedTable, grid: TableGrid): boolean {
  switch (strategy) {
    case 'all':
      return true;
    case 'auto':
      return !table.is_layout;
    case 'data':
      return !table.is_layout && table.header_rows + table.row_count >= 2 && table.column_count >= 2;
    case 'layout_aware':
      // Layout tables stay when they carry text of their own (outside the tables they wrap).
      return !table.is_layout || grid.rows.some((row) => row.cells.some((cell) => cell.content.text !== ''));
  }
}

function toExtractedTable(
  element: Element,
  grid: TableGrid,
  index: number,
  isLayout: boolean,
  base: URL | null,
  budget: TableOutputBudget,
): ExtractedTable {
  const text = grid.grid.map((row) => row.map((cell) => cell?.content.text ?? ''));
  const columnCount = widthWithoutEmptyTail(text);
  const headerRows = Math.min(countHeaderRows(grid), text.length);
  let truncated = grid.truncated;

  // Rows without any text (spacers, image strips) carry nothing; output row numbers skip them.
  const outputRowOf = new Map<number, number>();
  const rows: string[][] = [];
  for (let gridRow = 0; gridRow < text.length; gridRow++) {
    const cells = text[gridRow]!;
    if (gridRow < headerRows) {
      outputRowOf.set(gridRow, gridRow);
      continue;
    }
    const kept = cells.slice(0, columnCount);
    if (kept.every((cell) => cell === '')) continue;
    // Spans repeat a cell's text in every position it covers: each copy is charged (plus its JSON quotes and comma).
    if (!budget.takeChars(kept.reduce((sum, cell) => sum + cell.length + 3, 0))) {
      truncated = true;
      break;
    }
    outputRowOf.set(gridRow, headerRows + rows.length);
    rows.push(kept);
  }

  const links: TableLink[] = [];
  for (const sourceRow of grid.rows) {
    for (const cell of sourceRow.cells) {
      const row = outputRowOf.get(cell.row);
      if (row === undefined || cell.column >= columnCount) continue;
      for (const link of cell.content.links) {
        const url = resolveHref(link.href, base);
        if (url !== null) links.push({ row, column: cell.column, text: link.text, url });
      }
    }
  }

  return {
    index,
    caption: captionOf(element),
    headers: headerRows > 0 ? combineHeaderNames(grid.grid, headerRows, columnCount) : [],
    rows,
    row_count: rows.length,
    column_count: columnCount,
    header_rows: headerRows,
    links,
    is_layout: isLayout,
    truncated,
  };
}

/** Columns up to the last one holding any text: stray empty cells past a ragged edge are not columns. */
function widthWithoutEmptyTail(text: string[][]): number {
  let width = 0;
  for (const row of text) width = Math.max(width, row.length);
  while (width > 0 && text.every((row) => (row[width - 1] ?? '') === '')) width--;
  return width;
}

function captionOf(table: Element): string | null {
  const caption = Array.from(table.children).find((child) => child.localName === 'caption');
  const text = caption ? readCell(caption).text : '';
  return text === '' ? null : text;
}

function resolveHref(href: string, base: URL | null): string | null {
  if (href === '' || /^javascript:/i.test(href)) return null;
  if (!base) return href;
  return safeUrl(href, base)?.href ?? href;
}
