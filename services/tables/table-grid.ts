/**
 * A <table>'s own rows laid out on a full grid: every cell placed at each
 * position its rowspan/colspan covers, the way a browser draws it.
 */
import { readCell, type CellContent } from './cell-content.js';
import type { TableOutputBudget } from './output-budget.js';

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
  /** Rows were dropped because the output budget ran out. */
  truncated: boolean;
}

// HTML caps colspan at 1000; the same cap keeps a hostile page from allocating huge grids.
const MAX_COLUMNS = 1000;

interface RowInSection {
  element: Element;
  inHead: boolean;
  sectionEnd: number;
}

/**
 * Each table's own rows (not those of tables nested in its cells), in
 * document order, from one walk of the tree: asking every table for its
 * rows and every row for its table would cost the nesting depth squared.
 */
export function rowsByTable(root: Element): Map<Element, Element[]> {
  const owned = new Map<Element, Element[]>();
  const pending: Array<{ element: Element; table: Element | null }> = [{ element: root, table: null }];
  while (pending.length > 0) {
    const { element, table } = pending.pop()!;
    const children = Array.from(element.children);
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!;
      if (child.localName === 'table') {
        owned.set(child, []);
        pending.push({ element: child, table: child });
      } else {
        pending.push({ element: child, table });
      }
    }
    if (element.localName === 'tr' && table) owned.get(table)!.push(element);
  }
  return owned;
}

/**
 * Lays the table's rows out on a grid, charging every position to the
 * budget; when it runs out, the rows from there on are dropped.
 */
export function buildGrid(rowElements: Element[], budget: TableOutputBudget): TableGrid {
  const sourceRows = ownRows(rowElements);
  const grid: Array<Array<SourceCell | null>> = sourceRows.map(() => []);
  /** Positions of each grid row a cell covers; the rest are holes, charged when filled. */
  const covered = new Array<number>(sourceRows.length).fill(0);
  const rows: SourceRow[] = [];
  let kept = sourceRows.length;
  placing: for (let rowIndex = 0; rowIndex < kept; rowIndex++) {
    const sourceRow = sourceRows[rowIndex]!;
    const rowCells: SourceCell[] = [];
    const gridRow = grid[rowIndex]!;
    let column = 0;
    for (const element of cellElements(sourceRow.element)) {
      while (gridRow[column] !== undefined) column++;
      if (column >= MAX_COLUMNS) break;
      const columnSpan = Math.min(spanAttribute(element, 'colspan'), MAX_COLUMNS - column);
      const rowsLeft = Math.min(sourceRow.sectionEnd, kept) - rowIndex;
      const rowSpanValue = spanAttribute(element, 'rowspan');
      // rowspan="0" means "to the end of the row group"; spans never leave their group.
      let rowSpan = rowSpanValue === 0 ? rowsLeft : Math.min(rowSpanValue, rowsLeft);
      const affordableRows = Math.floor(budget.slotsRemaining / columnSpan);
      if (affordableRows < rowSpan) {
        // The span outgrows the budget: keep the rows it can cover and cut the table below them.
        budget.markTruncated();
        if (affordableRows === 0) {
          kept = rowIndex;
          break placing;
        }
        rowSpan = affordableRows;
        kept = rowIndex + affordableRows;
      }
      budget.takeSlots(columnSpan * rowSpan);
      const cell: SourceCell = {
        element,
        content: readCell(element),
        isHeaderCell: element.localName === 'th',
        row: rowIndex,
        column,
      };
      rowCells.push(cell);
      for (let down = 0; down < rowSpan; down++) {
        const target = grid[rowIndex + down]!;
        for (let across = 0; across < columnSpan; across++) {
          if (target[column + across] !== undefined) continue;
          target[column + across] = cell;
          covered[rowIndex + down]!++;
        }
      }
      column += columnSpan;
    }
    rows.push({ cells: rowCells, inHead: sourceRow.inHead });
  }
  let columnCount = 0;
  for (let row = 0; row < kept; row++) columnCount = Math.max(columnCount, grid[row]!.length);
  // Ragged rows are padded to the widest: that padding is output too.
  const filled: Array<Array<SourceCell | null>> = [];
  for (let row = 0; row < kept; row++) {
    if (!budget.takeSlots(columnCount - covered[row]!)) {
      kept = row;
      break;
    }
    const source = grid[row]!;
    filled.push(Array.from({ length: columnCount }, (_, column) => source[column] ?? null));
  }
  return { rows: rows.slice(0, kept), grid: filled, columnCount, truncated: kept < sourceRows.length };
}

/** The table's own rows as drawn: <thead> first, <tfoot> last. */
function ownRows(rowElements: Element[]): RowInSection[] {
  const head: Element[][] = [];
  const body: Element[][] = [];
  const foot: Element[][] = [];
  let looseRows: Element[] | null = null;
  const groups = new Map<Element, Element[]>();
  for (const row of rowElements) {
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
  for (const [sectionGroups, inHead] of [
    [head, true],
    [body, false],
    [foot, false],
  ] as const) {
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
