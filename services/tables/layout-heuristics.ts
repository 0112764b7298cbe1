/**
 * Whether a <table> lays out a page rather than holding data. Each rule names
 * a pattern of layout markup; the first that matches is the reason.
 */
import { collapseWhitespace } from './cell-content.js';
import type { SourceCell, TableGrid } from './table-grid.js';

export type LayoutReason =
  | 'presentation-role'
  | 'empty'
  | 'single-cell'
  | 'wraps-tables'
  | 'form'
  | 'prose'
  | 'title-box'
  | 'navigation';

// "Few rows with long text": cells this long on average read as paragraphs, not values.
const PROSE_MAX_ROWS = 3;
const PROSE_MEAN_CELL_CHARS = 150;
// A navigation cell is a list of links: many of them, making up most of its text.
const NAVIGATION_MIN_LINKS = 5;
const NAVIGATION_LINK_TEXT_SHARE = 0.7;

export function layoutReason(table: Element, { rows, grid, columnCount }: TableGrid): LayoutReason | null {
  const role = table.getAttribute('role')?.trim().toLowerCase();
  if (role === 'presentation' || role === 'none') return 'presentation-role';

  const cells = rows.flatMap((row) => row.cells);
  const filledCells = cells.filter((cell) => cell.content.text !== '');
  if (filledCells.length === 0) return 'empty';
  // Spacer rows (no text) do not count: layout tables use them for padding.
  const filledRows = rows.filter((row) => row.cells.some((cell) => cell.content.text !== ''));
  if (filledRows.length <= 1 && columnCount <= 1) return 'single-cell';

  if (cells.some((cell) => cell.content.hasNestedTable)) {
    // The table's own text against the text of the tables inside it.
    const ownChars = filledCells.reduce((sum, cell) => sum + cell.content.text.length, 0);
    const allChars = collapseWhitespace(table.textContent ?? '').length;
    if (ownChars < allChars - ownChars || filledRows.length <= 2) return 'wraps-tables';
  }

  const formCells = cells.filter((cell) => cell.content.hasFormControl).length;
  if (formCells * 2 >= filledCells.length) return 'form';

  if (filledRows.length <= PROSE_MAX_ROWS) {
    const meanChars = filledCells.reduce((sum, cell) => sum + cell.content.text.length, 0) / filledCells.length;
    if (meanChars >= PROSE_MEAN_CELL_CHARS) return 'prose';
  }

  // A title spanning the whole width over a single row: a navigation or notice box, not a dataset.
  const titleRow = grid[filledRows[0]!.cells[0]!.row] ?? [];
  if (filledRows.length === 2 && columnCount >= 2 && titleRow.every((cell) => cell === titleRow[0])) return 'title-box';
  // Navigation boxes: a good part of the cells are link lists.
  const navigationCells = filledCells.filter(isLinkList).length;
  if (navigationCells * 3 >= filledCells.length) return 'navigation';
  return null;
}

function isLinkList({ content }: SourceCell): boolean {
  if (content.links.length < NAVIGATION_MIN_LINKS) return false;
  const linkChars = content.links.reduce((sum, link) => sum + link.text.length, 0);
  return linkChars >= NAVIGATION_LINK_TEXT_SHARE * content.text.length;
}
