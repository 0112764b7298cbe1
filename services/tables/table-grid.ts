/**
 * A <table>'s own rows laid out on a full grid: every cell placed at each
 * position its rowspan/colspan covers, the way a browser draws it.
 */
import { readCell, type CellContent } from './cell-content.js';

export interface SourceCell {
  element: Element;
  content: CellContent;
  isHeaderCell: boolean;
  row: number;
  column: number;
}

export interface SourceRow {
  cells: SourceCell[];
  inHead: boolean;
}

export interface TableGrid {
  rows: SourceRow[];
  /** grid[row][column]: the cell drawn there, or null for a hole in a ragged table. */
  grid: Array<Array<SourceCell | null>>;
  columnCount: number;
}

// HTML caps colspan at 1000; the same cap keeps a hostile page from allocating huge grids.
const MAX_COLUMNS = 1000;

interface RowInSection {
  element: Element;
  inHead: boolean;
  sectionEnd: number;
}

export function buildGrid(table: Element): TableGrid {
  const sourceRows = ownRows(table);
  const grid: Array<Array<SourceCell | null>> = sourceRows.map(() => []);
  const rows: SourceRow[] = [];
  sourceRows.forEach((sourceRow, rowIndex) => {
    const rowCells: SourceCell[] = [];
    const gridRow = grid[rowIndex]!;
    let column = 0;
    for (const element of cellElements(sourceRow.element)) {
      while (gridRow[column] !== undefined) column++;
      if (column >= MAX_COLUMNS) break;
      const cell: SourceCell = {
        element,
        content: readCell(element),
        isHeaderCell: element.localName === 'th',
        row: rowIndex,
        column,
      };
      rowCells.push(cell);
      const columnSpan = Math.min(spanAttribute(element, 'colspan'), MAX_COLUMNS - column);
      const rowsLeft = sourceRow.sectionEnd - rowIndex;
      const rowSpanValue = spanAttribute(element, 'rowspan');
      // rowspan="0" means "to the end of the row group"; spans never leave their group.
      const rowSpan = rowSpanValue === 0 ? rowsLeft : Math.min(rowSpanValue, rowsLeft);
      for (let down = 0; down < rowSpan; down++) {
        const target = grid[rowIndex + down]!;
        for (let across = 0; across < columnSpan; across++) target[column + across] ??= cell;
      }
      column += columnSpan;
    }
    rows.push({ cells: rowCells, inHead: sourceRow.inHead });
  });
  const columnCount = Math.max(0, ...grid.map((row) => row.length));
  const filled = grid.map((row) => Array.from({ length: columnCount }, (_, column) => row[column] ?? null));
  return { rows, grid: filled, columnCount };
}

/** Rows of this table only (not of tables nested in its cells): <thead> first, <tfoot> last, as drawn. */
function ownRows(table: Element): RowInSection[] {
  const head: Element[][] = [];
  const body: Element[][] = [];
  const foot: Element[][] = [];
  let looseRows: Element[] | null = null;
  const groups = new Map<Element, Element[]>();
  for (const row of Array.from(table.querySelectorAll('tr'))) {
    if (row.closest('table') !== table) continue;
    const parent = row.parentElement;
    const section = parent?.localName;
    if (parent && (section === 'thead' || section === 'tbody' || section === 'tfoot')) {
      let group = groups.get(parent);
      if (!group) {
        group = [];
        groups.set(parent, group);
        (section === 'thead' ? head : section === 'tfoot' ? foot : body).push(group);
      }
      group.push(row);
      looseRows = null;
    } else {
      // Rows written straight under <table> (or under stray wrappers) form one implied body per run.
      if (!looseRows) {
        looseRows = [];
        body.push(looseRows);
      }
      looseRows.push(row);
    }
  }
  const ordered: RowInSection[] = [];
  for (const [sectionGroups, inHead] of [[head, true], [body, false], [foot, false]] as const) {
    for (const group of sectionGroups) {
      const sectionEnd = ordered.length + group.length;
      for (const element of group) ordered.push({ element, inHead, sectionEnd });
    }
  }
  return ordered;
}

function cellElements(row: Element): Element[] {
  return Array.from(row.children).filter((child) => child.localName === 'td' || child.localName === 'th');
}

/** A span attribute as a browser reads it; 0 is kept only for rowspan, where it means "to the end of the group". */
function spanAttribute(cell: Element, name: 'colspan' | 'rowspan'): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  if (!Number.isFinite(value) || value < 0) return 1;
  if (value === 0) return name === 'rowspan' ? 0 : 1;
  return value;
}
