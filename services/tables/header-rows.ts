/** Which leading rows of a table are its header, and the column names they spell. */
import { collapseWhitespace } from './cell-content.js';
import type { SourceRow, SourceCell, TableGrid } from './table-grid.js';

const BOLD_STYLE = /font-weight\s*:\s*(?:bold|bolder|[6-9]00)/i;

/**
 * Rows in <thead>; else the leading rows made only of <th>; else a first row
 * whose text is all bold. A table made only of <th> rows keeps one header row.
 */
export function countHeaderRows({ rows }: TableGrid): number {
  let count = 0;
  while (count < rows.length && rows[count]!.inHead) count++;
  if (count > 0) return count;
  while (count < rows.length && isHeaderCellRow(rows[count]!)) count++;
  if (count > 0) return count === rows.length ? 1 : count;
  if (rows.length > 1 && isBoldRow(rows[0]!) && !isBoldRow(rows[1]!)) return 1;
  return 0;
}

/** One name per column: the texts of the header rows top to bottom, repeats (from rowspans) and blanks left out. */
export function combineHeaderNames(
  grid: Array<Array<SourceCell | null>>,
  headerRows: number,
  columnCount: number,
): string[] {
  const names: string[] = [];
  for (let column = 0; column < columnCount; column++) {
    const parts: string[] = [];
    for (let row = 0; row < headerRows; row++) {
      const text = grid[row]?.[column]?.content.text ?? '';
      if (text && parts[parts.length - 1] !== text) parts.push(text);
    }
    names.push(parts.join(' / '));
  }
  return names;
}

function isHeaderCellRow(row: SourceRow): boolean {
  return row.cells.length > 0 && row.cells.every((cell) => cell.isHeaderCell);
}

function isBoldRow(row: SourceRow): boolean {
  const filled = row.cells.filter((cell) => cell.content.text !== '');
  return filled.length > 0 && filled.every((cell) => isBoldCell(cell.element, cell.content.text));
}

function isBoldCell(cell: Element, text: string): boolean {
  if (
    BOLD_STYLE.test(cell.getAttribute('style') ?? '') ||
    BOLD_STYLE.test(cell.parentElement?.getAttribute('style') ?? '')
  ) {
    return true;
  }
  // Bold when <b>/<strong> wrap all of the cell's text; nested bold is read once, through its outermost element.
  const boldText = Array.from(cell.querySelectorAll('b, strong'))
    .filter((element) => isOutermostBold(element, cell))
    .map((element) => element.textContent ?? '')
    .join('');
  return collapseWhitespace(boldText) === text;
}

function isOutermostBold(element: Element, cell: Element): boolean {
  for (let parent = element.parentElement; parent && parent !== cell; parent = parent.parentElement) {
    if (parent.localName === 'b' || parent.localName === 'strong') return false;
  }
  return true;
}
